export { BanditDecider, type BanditDeciderOptions } from './bandit-decider.js';
export { BanditLearner, type BanditLearnerOptions } from './bandit-learner.js';
export type { BanditLearnerEvent } from './bandit-learner-event.js';
export { BanditMetrics } from './bandit-metrics.js';
export type { LoggedDecision } from './logged-decision.js';
export { parseLoggedDecision } from './parse-logged-decision.js';
export { parseRewardRecord, type RewardRecord } from './parse-reward-record.js';
export { PendingDecisions, type DecisionStatus, type PendingDecision } from './pending-decisions.js';
export { createBanditPolicy, type BanditPolicyConfig } from './create-bandit-policy.js';
