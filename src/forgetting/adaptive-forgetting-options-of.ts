import type { AdaptiveForgettingOptions } from './adaptive-forgetting-options.js';
import type { ForgettingBank } from './forgetting-bank.js';

/** The options that recreate a model's adaptive forgetting (`forgetting: 'none'` without a bank), for `optionsOf`. */
export function adaptiveForgettingOptionsOf(bank: ForgettingBank<object> | undefined): AdaptiveForgettingOptions {
  return bank === undefined ? { forgetting: 'none' } : { forgetting: 'adaptive', forgetFactors: Array.from(bank.factors), forgetEvery: bank.every };
}
