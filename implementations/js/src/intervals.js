// Ordered sets of frame numbers for the keeper (src/keeper.js): numbers in → a skip list of runs, a binary heap →
// membership, `through`, held counts per run, and the held numbers below a line, each in O(log n).
//
// Why this shape: an episode's accounted numbers (spec/stream.md STR-ACCOUNTED) are mostly one long run from 0 (the
// run that `through` ends, STR-THROUGH) plus numbers received ahead of a gap, so they are kept as maximal runs
// [lo, hi] of consecutive numbers: a post of a million skipped numbers in a row is one run, and numbers up to 2^53
// never need listing. The runs sit in a skip list (expected O(log n) search and insert, O(1) step to the next run,
// no array to shift), and each run counts the held frames inside it, so "how many held frames lie above through" is
// the total less the first run's count, and `through` advancing over old runs adds up their counts as it goes. Held
// numbers also sit in a min-heap, which hands the frames below a new release line back in ascending order. Numbers
// are doubles holding integers in 0 … 2^53, where a double is exact. The skip list draws its levels from a fixed-seed
// generator, so runs are reproducible.

const MAX_LEVEL = 24; // p = 1/4 per level: ample for 2^48 runs

class Run {
  constructor(lo, hi, level) {
    this.lo = lo; // first number of the run
    this.hi = hi; // last number (inclusive); runs never touch: hi + 1 < the next run's lo
    this.held = 0; // how many held frames (src/keeper.js) lie in [lo, hi]
    this.next = new Array(level).fill(null); // forward links, one per level
  }
}

/** A set of integers held as maximal runs of consecutive numbers, in a skip list. */
export class RunSet {
  constructor() {
    this.head = new Run(-Infinity, -Infinity, MAX_LEVEL);
    this.level = 1; // levels in use
    this.count = 0; // how many numbers the set holds
    this.runs = 0; // how many runs
    this.seed = 0x2545f491; // xorshift32 state
  }

  #randomLevel() {
    let x = this.seed;
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    this.seed = x >>> 0;
    let level = 1;
    let bits = this.seed;
    while (level < MAX_LEVEL && (bits & 3) === 0) {
      level++;
      bits >>>= 2;
      if (bits === 0) break;
    }
    return level;
  }

  /** The last run with lo <= u, or null; fills `update[i]` with the last node of level i with lo <= u. */
  #predecessor(u, update) {
    let x = this.head;
    for (let i = this.level - 1; i >= 0; i--) {
      while (x.next[i] !== null && x.next[i].lo <= u) x = x.next[i];
      if (update) update[i] = x;
    }
    return x === this.head ? null : x;
  }

  /** The run holding u, or null. */
  runAt(u) {
    const p = this.#predecessor(u, null);
    return p !== null && p.hi >= u ? p : null;
  }

  has(u) {
    return this.runAt(u) !== null;
  }

  /** Adds `delta` to the held count of the run holding u (u must be in the set). */
  addHeld(u, delta) {
    const run = this.runAt(u);
    if (run === null) throw new Error(`internal: ${u} is held but not accounted`);
    run.held += delta;
  }

  /** The lowest run, or null; `run.next[0]` is the run after it. */
  first() {
    return this.head.next[0];
  }

  /** Adds u (no change when present), merging the runs it touches; returns the run that holds u. */
  add(u) {
    const update = new Array(MAX_LEVEL);
    const p = this.#predecessor(u, update);
    if (p !== null && p.hi >= u) return p;
    this.count++;
    const after = update[0].next[0]; // the first run with lo > u
    const joinsLeft = p !== null && p.hi === u - 1;
    const joinsRight = after !== null && after.lo === u + 1;
    if (joinsLeft && joinsRight) {
      p.hi = after.hi;
      p.held += after.held;
      for (let i = 0; i < after.next.length; i++) update[i].next[i] = after.next[i]; // update[i] precedes `after`
      this.runs--;
      return p;
    }
    if (joinsLeft) {
      p.hi = u;
      return p;
    }
    if (joinsRight) {
      after.lo = u; // still above p.hi + 1: the order holds
      return after;
    }
    const level = this.#randomLevel();
    for (let i = this.level; i < level; i++) update[i] = this.head;
    this.level = Math.max(this.level, level);
    const run = new Run(u, u, level);
    for (let i = 0; i < level; i++) {
      run.next[i] = update[i].next[i];
      update[i].next[i] = run;
    }
    this.runs++;
    return run;
  }

  /** The largest N with 0 … N all in the set, or -1 when 0 is not (STR-THROUGH). */
  prefixEnd() {
    const r = this.first();
    return r !== null && r.lo === 0 ? r.hi : -1;
  }
}

/** A binary min-heap of numbers. */
export class MinHeap {
  constructor() {
    this.a = [];
  }

  get size() {
    return this.a.length;
  }

  peek() {
    return this.a.length ? this.a[0] : undefined;
  }

  push(x) {
    const a = this.a;
    let k = a.length;
    a.push(x);
    while (k > 0) {
      const parent = (k - 1) >> 1;
      if (a[parent] <= x) break;
      a[k] = a[parent];
      k = parent;
    }
    a[k] = x;
  }

  pop() {
    const a = this.a;
    const top = a[0];
    const last = a.pop();
    if (a.length > 0) {
      let k = 0;
      for (;;) {
        const l = 2 * k + 1;
        if (l >= a.length) break;
        const c = l + 1 < a.length && a[l + 1] < a[l] ? l + 1 : l;
        if (a[c] >= last) break;
        a[k] = a[c];
        k = c;
      }
      a[k] = last;
    }
    return top;
  }
}
