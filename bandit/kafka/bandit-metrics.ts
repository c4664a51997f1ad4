import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { DeadLetterReason } from '../../connectors/kafka/dead-letter-reason.js';

/**
 * The bandit backend's metrics in a registry (e.g. `PipelineMetrics.registry`, served by its
 * metrics server): decisions (their rate is decisions/s) and their propensities, rewards by outcome
 * (the reward rate), the reward delay from decision to reward, pending decisions and dead letters by
 * reason.
 */
export class BanditMetrics {
  private readonly decisions: Counter;
  private readonly propensity: Histogram;
  private readonly rewards: Counter<'outcome'>;
  private readonly delay: Histogram;
  private readonly pending: Gauge;
  private readonly deadLetters: Counter<'reason'>;

  constructor(registry: Registry) {
    const registers = [registry];
    this.decisions = new Counter({ name: 'vbstream_bandit_decisions_total', help: 'Decisions logged (deciders) or joined (learner).', registers });
    this.propensity = new Histogram({ name: 'vbstream_bandit_propensity', help: 'Propensity of the chosen arm, per decision (small ones make off-policy estimates noisy).', buckets: [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 0.8, 0.95, 1], registers });
    this.rewards = new Counter({ name: 'vbstream_bandit_rewards_total', help: 'Decisions resolved: rewarded, expired-learned (default reward) or expired-dropped.', labelNames: ['outcome'], registers });
    this.delay = new Histogram({ name: 'vbstream_bandit_reward_delay_seconds', help: 'From a decision to its reward reaching the rewards topic.', buckets: [0.01, 0.1, 1, 10, 60, 600, 3600, 86_400], registers });
    this.pending = new Gauge({ name: 'vbstream_bandit_pending_decisions', help: 'Decisions awaiting their reward at the learner.', registers });
    this.deadLetters = new Counter({ name: 'vbstream_bandit_dead_letters_total', help: 'Rewards and decisions sent to the dead-letter topics, by reason.', labelNames: ['reason'], registers });
  }

  recordDecision(propensity: number): void {
    this.decisions.inc();
    this.propensity.observe(propensity);
  }

  recordReward(delaySeconds: number): void {
    this.rewards.inc({ outcome: 'rewarded' });
    this.delay.observe(delaySeconds);
  }

  recordExpired(learned: boolean): void {
    this.rewards.inc({ outcome: learned ? 'expired-learned' : 'expired-dropped' });
  }

  recordDeadLetter(reason: DeadLetterReason): void {
    this.deadLetters.inc({ reason });
  }

  setPending(decisions: number): void {
    this.pending.set(decisions);
  }
}
