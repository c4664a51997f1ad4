/**
 * The most calls `learn` hands to its learner before the first of them is answered: enough that a
 * worker goes from one chunk to the next without a round trip through the main thread, few enough
 * that a snapshot (which covers the calls handed on) waits for at most this many chunks. Items past
 * it wait in `learn`, counted by its backpressure valve, which pauses the source.
 */
export const LEARN_WINDOW = 4;
