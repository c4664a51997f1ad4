import type { OptionDocs } from '../core/option-docs.js';

/** Options of adaptive forgetting (see `ForgettingBank`), shared by the streaming families that offer it. */
export interface AdaptiveForgettingOptions {
  /** `adaptive` (default): the forgetting factor is chosen from `forgetFactors` by the stream's prequential evidence; `none`: never forgets by itself. */
  readonly forgetting?: 'adaptive' | 'none';
  /** Candidate forgetting factors in (0, 1], each applied every `forgetEvery` records; the first leads at the start. Default [1, 0.99, 0.95, 0.8]. */
  readonly forgetFactors?: readonly number[];
  /** Records between forgetting steps (and leader choices); default 100. */
  readonly forgetEvery?: number;
}

/** What each option of {@link AdaptiveForgettingOptions} means. */
export const ADAPTIVE_FORGETTING_OPTION_DOCS: OptionDocs = {
  forgetting: '`adaptive` (default): one posterior per candidate factor of `forgetFactors`; the model predicts, samples and reports with the candidate of most prequential evidence (discounted log predictive probability, a memory of ~1,000 records; a new leader must beat the old by 2 nats). Awake, every candidate learns every record (K× the CPU and memory); adf-logit\'s challengers sleep (not fed, copied or saved) while a non-forgetting leader predicts as well as it expects, and wake when its surprise exceeds its predictive entropy by 20 nats (a CUSUM, 0.1 nat a record allowed); `none`: one posterior that forgets only when `forget()` is called',
  forgetFactors: 'candidate forgetting factors in (0, 1], each a power prior toward the prior applied every `forgetEvery` records; the first leads at the start (default [1, 0.99, 0.95, 0.8])',
  forgetEvery: 'records between forgetting steps, counted in records (any batching gives the same state) (default 100)',
};
