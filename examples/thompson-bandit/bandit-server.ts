import type { Server } from 'node:http';
import { createJsonServer } from '../shared/json-server.js';
import type { BanditBackend } from './bandit-backend.js';
import { parseDecideRequest, parseRewardRequest } from './bandit-messages.js';

/**
 * The backend over HTTP: `POST /decide {context}` → `{decisionId, arm, scores, propensity}`,
 * `POST /reward {decisionId, reward}` → `{learned, arm}`, `GET /healthz`. Bad requests get 400
 * with the reason.
 */
export function createBanditServer(backend: BanditBackend, bodyLimit?: number): Server {
  return createJsonServer({
    bodyLimit,
    routes: {
      'POST /decide': (body) => backend.decide(parseDecideRequest(body, backend.policy.dim)),
      'POST /reward': (body) => backend.reward(parseRewardRequest(body)),
      'GET /healthz': () => ({ policy: backend.policy.name, arms: backend.policy.arms, dim: backend.policy.dim, rewards: backend.rewards }),
    },
  });
}
