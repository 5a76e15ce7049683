// Sorted sets of frame numbers for the keeper (src/keeper.js): numbers in → binary search → membership, runs, ranks.
//
// Why this shape: an episode's accounted numbers (spec/stream.md STR-ACCOUNTED) are mostly one long run from 0 (the
// run that `through` ends, STR-THROUGH) plus a few numbers received ahead of a gap, so they are kept as maximal runs
// [lo, hi] of consecutive numbers: `through` is the end of the run that starts at 0, a post of a million skipped
// numbers in a row costs one run, and numbers up to 2^53 never need listing. Held frame numbers are kept as a sorted
// array, which gives "how many are held in (a, b]" by two binary searches and the frames below the release line as a
// prefix. Searches are O(log n); an insert or removal in the middle moves the entries after it (one memmove of at
// most n numbers), n being bounded by MAX_STREAM_FRAMES for everything a post can add (STR-LIMIT-FRAMES). Numbers are
// doubles holding integers in 0 … 2^53, where a double is exact.

/** Index of the first element of the ascending array `a` that is > x (a.length when none). */
export function upperBound(a, x) {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid] <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Index of the first element of the ascending array `a` that is >= x (a.length when none). */
export function lowerBound(a, x) {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** A set of integers held as maximal runs of consecutive numbers, with its count. */
export class RunSet {
  constructor() {
    this.lo = []; // run starts, ascending
    this.hi = []; // run ends (inclusive); hi[k] + 1 < lo[k + 1]: runs never touch
    this.count = 0; // how many numbers the set holds
  }

  /** Index of the run holding u, or -1. */
  runOf(u) {
    const k = upperBound(this.lo, u) - 1;
    return k >= 0 && this.hi[k] >= u ? k : -1;
  }

  has(u) {
    return this.runOf(u) >= 0;
  }

  /** The end of the run holding u (u must be in the set). */
  endOfRunAt(u) {
    return this.hi[this.runOf(u)];
  }

  /** Adds u (no change when present), merging the runs it touches. */
  add(u) {
    const k = upperBound(this.lo, u) - 1; // the last run starting at or before u
    if (k >= 0 && this.hi[k] >= u) return;
    const joinsLeft = k >= 0 && this.hi[k] === u - 1;
    const joinsRight = k + 1 < this.lo.length && this.lo[k + 1] === u + 1;
    this.count++;
    if (joinsLeft && joinsRight) {
      this.hi[k] = this.hi[k + 1];
      this.lo.splice(k + 1, 1);
      this.hi.splice(k + 1, 1);
    } else if (joinsLeft) {
      this.hi[k] = u;
    } else if (joinsRight) {
      this.lo[k + 1] = u;
    } else {
      this.lo.splice(k + 1, 0, u);
      this.hi.splice(k + 1, 0, u);
    }
  }

  /** The largest N with 0 … N all in the set, or -1 when 0 is not (STR-THROUGH). */
  prefixEnd() {
    return this.lo.length > 0 && this.lo[0] === 0 ? this.hi[0] : -1;
  }
}

/** A sorted array of distinct numbers. */
export class SortedNumbers {
  constructor() {
    this.items = [];
  }

  get size() {
    return this.items.length;
  }

  insert(u) {
    const k = lowerBound(this.items, u);
    if (this.items[k] !== u) this.items.splice(k, 0, u);
  }

  /** How many numbers lie in (a, b]. */
  countIn(a, b) {
    return b <= a ? 0 : upperBound(this.items, b) - upperBound(this.items, a);
  }

  /** How many numbers are > a. */
  countAbove(a) {
    return this.items.length - upperBound(this.items, a);
  }

  /** Removes and returns the numbers below x, ascending. */
  takeBelow(x) {
    const k = lowerBound(this.items, x);
    return k === 0 ? [] : this.items.splice(0, k);
  }
}
