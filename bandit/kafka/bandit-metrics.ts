import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { METRIC_BUCKETS } from '../../monitoring/metric-buckets.js';
import type { DeadLetterReason } from '../../connectors/kafka/dead-letter-reason.js';
import type { BanditLiveSource } from '../../monitoring/bandit-live-source.js';

/** Which bandit process a `BanditMetrics` serves: the series each exports are its own role's only. */
export type BanditRole = 'decider' | 'learner';

/**
 * The bandit backend's metrics in a registry (e.g. `PipelineMetrics.registry`, served by its
 * metrics server), each process exporting its own role's series only (a series in both would show
 * twice on a dashboard over the deciders and the learner). A decider: decisions logged, their arms,
 * propensities and estimated regret, the rewards behind the policy it serves and its HTTP requests
 * by route and status. The learner: decisions joined, rewards by outcome and their sum, reward
 * delays, pending decisions and dead letters (the mean reward: the change of the reward sum over the
 * change of the rewarded count). It is also the live page's source of arm choices and cumulative
 * reward ({@link BanditLiveSource}).
 *
 * Estimated regret: at each decision, a decider adds max_a μ̂(x, a) − μ̂(x, chosen), where μ̂(x, a) is
 * E[r | x, a] under the posterior of the policy that decided (its mean, `expectedRewards`): the
 * regret of the choice as the policy itself believes it, zero for a greedy choice, positive when it
 * explored. It needs no reward and no knowledge of the world; it is not the realised regret against
 * the true rewards (which `simulateBandit` measures where the world is known), and it shrinks both
 * when the policy learns and when it stops exploring.
 */
export class BanditMetrics implements BanditLiveSource {
  /** Decisions logged (`vbstream_bandit_decisions_total`, a decider) or joined with their reward's partition (`vbstream_bandit_joined_decisions_total`, the learner). */
  private readonly decisions: Counter;
  /** Decisions per arm and the reward sum, as the live page reads them. */
  private readonly choices: number[] = [];
  private rewardTotal = 0;
  // a decider's series
  private readonly armDecisions?: Counter<'arm'>;
  private readonly propensity?: Histogram;
  private readonly regret?: Counter;
  private readonly policyRewards?: Gauge;
  private readonly requests?: Counter<'route' | 'status'>;
  private readonly requestDuration?: Histogram<'route'>;
  // the learner's series
  private readonly rewards?: Counter<'outcome'>;
  private readonly delay?: Histogram;
  private readonly pending?: Gauge;
  private readonly deadLetters?: Counter<'reason'>;
  private readonly rewardSum?: Gauge;

  /** The series of `role` in `registry`: a decider's or the learner's (a process serving both roles makes one of each). */
  constructor(registry: Registry, readonly role: BanditRole) {
    const registers = [registry];
    if (role === 'decider') {
      this.decisions = new Counter({ name: 'vbstream_bandit_decisions_total', help: 'Decisions logged by this decider.', registers });
      this.armDecisions = new Counter({ name: 'vbstream_bandit_arm_decisions_total', help: 'Decisions logged, by the arm chosen (their shares: how the policy divides its traffic).', labelNames: ['arm'], registers });
      this.propensity = new Histogram({ name: 'vbstream_bandit_propensity', help: 'Propensity of the chosen arm, per decision (small ones make off-policy estimates noisy).', buckets: [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 0.8, 0.95, 1], registers });
      this.regret = new Counter({ name: 'vbstream_bandit_estimated_regret_total', help: 'Sum over decisions of max_a E[r|x,a] - E[r|x,chosen] under the deciding policy\'s posterior means (deciders); / decisions_total: the mean per decision.', registers });
      this.policyRewards = new Gauge({ name: 'vbstream_bandit_policy_rewards', help: 'Rewards learned into the policy a decider serves (the learner\'s count when it published it).', registers });
      this.requestDuration = new Histogram({ name: 'vbstream_bandit_http_request_duration_seconds', help: 'Time from a request to the decide service arriving to its answer (a decision logged, a reward written), by route, seconds.', labelNames: ['route'], buckets: [...METRIC_BUCKETS.httpRequestSeconds], registers });
      this.requests = new Counter({ name: 'vbstream_bandit_http_requests_total', help: 'Requests to the decide service, by route and HTTP status.', labelNames: ['route', 'status'], registers });
    } else {
      this.decisions = new Counter({ name: 'vbstream_bandit_joined_decisions_total', help: 'Logged decisions the learner read (to join with their rewards).', registers });
      this.rewards = new Counter({ name: 'vbstream_bandit_rewards_total', help: 'Decisions resolved: rewarded, expired-learned (default reward) or expired-dropped.', labelNames: ['outcome'], registers });
      this.delay = new Histogram({ name: 'vbstream_bandit_reward_delay_seconds', help: 'From a decision to its reward reaching the rewards topic.', buckets: [0.01, 0.1, 1, 10, 60, 600, 3600, 86_400], registers });
      this.pending = new Gauge({ name: 'vbstream_bandit_pending_decisions', help: 'Decisions awaiting their reward at the learner.', registers });
      this.deadLetters = new Counter({ name: 'vbstream_bandit_dead_letters_total', help: 'Rewards and decisions sent to the dead-letter topics, by reason.', labelNames: ['reason'], registers });
      this.rewardSum = new Gauge({ name: 'vbstream_bandit_cumulative_reward', help: 'Sum of the rewards learned (outcome="rewarded"), a gauge as rewards may be negative; its change / the change of rewards_total{outcome="rewarded"}: the mean reward.', registers });
    }
  }

  recordDecision(propensity: number, arm: number): void {
    this.decisions.inc();
    this.armDecisions?.inc({ arm: String(arm) });
    for (let a = this.choices.length; a <= arm; a++) this.choices.push(0);
    this.choices[arm]++;
    this.propensity?.observe(propensity);
  }

  armChoices(): readonly number[] {
    return this.choices;
  }

  cumulativeReward(): number {
    return this.rewardTotal;
  }

  /** A decider's estimated regret of one decision (see the class comment). */
  recordEstimatedRegret(regret: number): void {
    this.regret?.inc(Math.max(0, regret));
  }

  recordReward(delaySeconds: number, reward: number): void {
    this.rewards?.inc({ outcome: 'rewarded' });
    this.rewardSum?.inc(reward);
    this.rewardTotal += reward;
    this.delay?.observe(delaySeconds);
  }

  recordExpired(learned: boolean): void {
    this.rewards?.inc({ outcome: learned ? 'expired-learned' : 'expired-dropped' });
  }

  recordDeadLetter(reason: DeadLetterReason): void {
    this.deadLetters?.inc({ reason });
  }

  setPending(decisions: number): void {
    this.pending?.set(decisions);
  }

  setPolicyRewards(rewards: number): void {
    this.policyRewards?.set(rewards);
  }

  recordRequest(route: string, status: number, seconds: number): void {
    this.requests?.inc({ route, status: String(status) });
    this.requestDuration?.observe({ route }, seconds);
  }
}
