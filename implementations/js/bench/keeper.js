#!/usr/bin/env node
// Benchmark of the stream keeper (src/keeper.js): scenarios in → timed posts and acts → per-operation cost as a ratio
// against a baseline measured in the same run (absolute times on shared machines mean little; ratios do).
//
//   node implementations/js/bench/keeper.js
//
// 1. Posting one frame into an episode that already remembers n numbers (all ahead of a gap at 0, so none counts
//    toward through and every post walks the sorted structures), for n = 16 … 65 536, the limit scaled to fit;
//    baseline n = 16. Flat ratios mean the cost per frame does not grow with what the episode remembers.
// 2. A robot streaming 200 000 steps (post a frame, act on it) under a window: the last 20 000 steps against the
//    first 20 000. A ratio near 1 means the keeper's state stays bounded over a long episode.

import { Keeper } from "../src/keeper.js";

const WAIT = 10.0;
const limits = (frames) => ({
  MAX_STREAM_FRAMES: frames, MAX_STREAM_BYTES: 1 << 30, MAX_WORKER_STREAM_BYTES: 1 << 30, STREAM_WAIT_S: WAIT,
});

function nsPerOp(f, ops) {
  const t0 = process.hrtime.bigint();
  f();
  return Number(process.hrtime.bigint() - t0) / ops;
}

/** ns per post of one frame into an episode remembering n numbers (odd numbers 1, 3, …; posts fill even ones). */
function postCost(n, posts) {
  const k = new Keeper({ declaration: null, limits: limits(n + posts + 1) });
  const ahead = Array.from({ length: n }, (_, j) => ({ seq: 2 * j + 1, inputs: j }));
  for (let j = 0; j < ahead.length; j += 4096) k.post({ episode_id: "e", frames: ahead.slice(j, j + 4096) }, 0);
  // Fill even numbers from 2 upwards in a scattered order (0 stays missing, so through stays -1).
  const order = Array.from({ length: posts }, (_, j) => 2 + 2 * ((j * 7919) % posts));
  return nsPerOp(() => {
    for (const u of order) {
      const { answer } = k.post({ episode_id: "e", frames: [{ seq: u, inputs: u }] }, 0);
      if (answer.through !== -1) throw new Error("unexpected through");
    }
  }, posts);
}

function streamingCost(steps, window) {
  const k = new Keeper({ declaration: { streams: { cam: { at: [-window, 0] } } }, limits: limits(1024) });
  const costs = [];
  const chunk = steps / 10;
  for (let c = 0; c < 10; c++) {
    costs.push(nsPerOp(() => {
      for (let t = c * chunk; t < (c + 1) * chunk; t++) {
        k.post({ episode_id: "e", frames: [{ seq: t, inputs: { cam: t } }] }, t);
        const { answer } = k.act({ episode_id: "e", seq: t, inputs: { cam: t } }, t, t);
        if (answer.handed === undefined) throw new Error(`act ${t} not handed: ${JSON.stringify(answer)}`);
      }
    }, chunk));
  }
  return { first: costs[0], last: costs[9], held: k.episodes.get("e").held.size };
}

/** The median of three runs (machines are shared and noisy). */
const median3 = (f) => [f(), f(), f()].sort((a, b) => a - b)[1];

postCost(1024, 4000); // warm up the JIT
postCost(16, 4000);
const base = median3(() => postCost(16, 4000));
console.log("1. one frame posted into an episode remembering n numbers (baseline n = 16)");
console.log(`   n = 16: ${(base / 1000).toFixed(2)} µs per post`);
for (const n of [256, 4096, 65536]) {
  const c = median3(() => postCost(n, 4000));
  console.log(`   n = ${n}: ${(c / 1000).toFixed(2)} µs per post, ${(c / base).toFixed(2)}× the baseline`);
}
const s = streamingCost(200000, 8);
console.log("2. streaming 200 000 steps under a window [-8, 0], a post and an act per step");
console.log(`   first 20 000: ${(s.first / 1000).toFixed(2)} µs per step; last 20 000: ${(s.last / 1000).toFixed(2)} µs ` +
  `per step, ${(s.last / s.first).toFixed(2)}× the first; frames held at the end: ${s.held}`);
