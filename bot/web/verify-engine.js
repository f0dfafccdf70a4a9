/* Game Night: recompute a Lotería, Housie or Bingo game from its revealed seed.
 *
 * A port of engine/fairness.py, engine/loteria.py, engine/housie/ and engine/bingo.py, written
 * from the docs/FAIRNESS.md, "Fair draws": the HMAC-SHA256 stream, the draw order, tabla, strip
 * and card dealing, the Bingo patterns, and when each board completes each prize. No network, no dependencies; the page's
 * tests compare every function here with the Python engine.
 *
 * Exposed as the global `GamenightEngine` (a classic script, so the page works from file://).
 */
"use strict";

const GamenightEngine = (() => {
  const SEED_BYTES = 32;
  const encoder = new TextEncoder();

  // ------------------------------------------------------------------------------ bytes, hex

  function hexToBytes(text) {
    if (typeof text !== "string" || !/^([0-9a-fA-F]{2})*$/.test(text)) {
      throw new Error(`not hex: ${text}`);
    }
    const out = new Uint8Array(text.length / 2);
    for (let i = 0; i < out.length; i += 1) out[i] = parseInt(text.slice(2 * i, 2 * i + 2), 16);
    return out;
  }

  function bytesToHex(bytes) {
    return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  }

  function concatBytes(...parts) {
    const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const part of parts) {
      out.set(part, at);
      at += part.length;
    }
    return out;
  }

  function bigFromBytes(bytes) {
    let value = 0n;
    for (const b of bytes) value = (value << 8n) | BigInt(b);
    return value;
  }

  function bitLength(n) {
    return n === 0n ? 0 : n.toString(2).length;
  }

  // ------------------------------------------------------------- SHA-256 without WebCrypto
  // WebCrypto (crypto.subtle) exists only in secure contexts: file://, https:// and localhost.
  // A bot serving this page over plain http on another host would leave it without one, so a
  // small SHA-256 stands in there (the tests check both give the same bytes).

  const K256 = new Uint32Array([
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
    0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
    0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
    0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
    0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
    0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
    0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
    0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
    0xc67178f2,
  ]);

  function sha256Plain(message) {
    const length = message.length;
    const padded = new Uint8Array(Math.ceil((length + 9) / 64) * 64);
    padded.set(message);
    padded[length] = 0x80;
    const view = new DataView(padded.buffer);
    view.setUint32(padded.length - 8, Math.floor(length / 0x20000000));
    view.setUint32(padded.length - 4, (length * 8) >>> 0);
    const h = new Uint32Array([
      0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab,
      0x5be0cd19,
    ]);
    const w = new Uint32Array(64);
    const rotr = (x, n) => (x >>> n) | (x << (32 - n));
    for (let block = 0; block < padded.length; block += 64) {
      for (let i = 0; i < 16; i += 1) w[i] = view.getUint32(block + 4 * i);
      for (let i = 16; i < 64; i += 1) {
        const s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >>> 3);
        const s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >>> 10);
        w[i] = (w[i - 16] + s0 + w[i - 7] + s1) >>> 0;
      }
      let [a, b, c, d, e, f, g, hh] = h;
      for (let i = 0; i < 64; i += 1) {
        const s1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25);
        const t1 = (hh + s1 + ((e & f) ^ (~e & g)) + K256[i] + w[i]) >>> 0;
        const s0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22);
        const t2 = (s0 + ((a & b) ^ (a & c) ^ (b & c))) >>> 0;
        hh = g;
        g = f;
        f = e;
        e = (d + t1) >>> 0;
        d = c;
        c = b;
        b = a;
        a = (t1 + t2) >>> 0;
      }
      const add = [a, b, c, d, e, f, g, hh];
      for (let i = 0; i < 8; i += 1) h[i] = (h[i] + add[i]) >>> 0;
    }
    const out = new Uint8Array(32);
    const outView = new DataView(out.buffer);
    for (let i = 0; i < 8; i += 1) outView.setUint32(4 * i, h[i]);
    return out;
  }

  function hmacSha256Plain(key, message) {
    let block = key.length > 64 ? sha256Plain(key) : key;
    const padded = new Uint8Array(64);
    padded.set(block);
    block = padded;
    const inner = block.map((b) => b ^ 0x36);
    const outer = block.map((b) => b ^ 0x5c);
    return sha256Plain(concatBytes(outer, sha256Plain(concatBytes(inner, message))));
  }

  function webCrypto() {
    return typeof crypto !== "undefined" && crypto.subtle ? crypto.subtle : null;
  }

  /** Which implementation computes the hashes: "webcrypto" or "fallback". */
  let forced = null;
  function cryptoName() {
    return forced || (webCrypto() ? "webcrypto" : "fallback");
  }

  /** Use "webcrypto", "fallback", or null (automatic) from now on; the tests compare the two. */
  function useCrypto(name) {
    forced = name;
  }

  async function sha256(bytes) {
    if (cryptoName() === "webcrypto") {
      return new Uint8Array(await webCrypto().digest("SHA-256", bytes));
    }
    return sha256Plain(bytes);
  }

  /** An async function computing HMAC-SHA256(key, message). */
  async function hmacWithKey(key) {
    if (cryptoName() === "webcrypto") {
      const imported = await webCrypto().importKey(
        "raw",
        key,
        { name: "HMAC", hash: "SHA-256" },
        false,
        ["sign"],
      );
      return async (message) => new Uint8Array(await webCrypto().sign("HMAC", imported, message));
    }
    return async (message) => hmacSha256Plain(key, message);
  }

  /** The commitment posted before the first call: SHA-256 of the seed, hex. */
  async function commitment(seedHex) {
    return bytesToHex(await sha256(parseSeed(seedHex)));
  }

  function parseSeed(seedHex) {
    const text = String(seedHex).trim().toLowerCase();
    if (!/^[0-9a-f]*$/.test(text)) throw new Error("seed-not-hex");
    if (text.length !== 2 * SEED_BYTES) throw new Error("seed-length");
    return hexToBytes(text);
  }

  // ----------------------------------------------------------------------------- the stream

  const BATCH = 8; // HMAC blocks computed at once (WebCrypto is asynchronous)

  /**
   * The stream of docs/FAIRNESS.md: blocks HMAC-SHA256(key=seed, msg=label || ":" || counter as 8 bytes
   * big-endian) for counter 0, 1, 2, ...; getrandbits(k) takes ceil(k/8) bytes big-endian and
   * keeps the top k bits; randbelow(n) draws k = bitLength(n) bits until the value is < n.
   */
  class Stream {
    constructor(hmac, label) {
      this.hmac = hmac;
      this.prefix = encoder.encode(`${label}:`);
      this.counter = 0;
      this.buffer = new Uint8Array(0);
    }

    static async open(seedHex, label) {
      return new Stream(await hmacWithKey(parseSeed(seedHex)), label);
    }

    async take(count) {
      while (this.buffer.length < count) {
        const messages = [];
        for (let i = 0; i < BATCH; i += 1) {
          const counter = new Uint8Array(8);
          new DataView(counter.buffer).setBigUint64(0, BigInt(this.counter + i));
          messages.push(concatBytes(this.prefix, counter));
        }
        this.counter += BATCH;
        const blocks = await Promise.all(messages.map((m) => this.hmac(m)));
        this.buffer = concatBytes(this.buffer, ...blocks);
      }
      const taken = this.buffer.slice(0, count);
      this.buffer = this.buffer.slice(count);
      return taken;
    }

    async getrandbits(k) {
      if (k === 0) return 0n;
      const nbytes = Math.ceil(k / 8);
      return bigFromBytes(await this.take(nbytes)) >> BigInt(nbytes * 8 - k);
    }

    async randbelow(n) {
      const bound = BigInt(n);
      if (bound <= 0n) throw new Error("randbelow needs a positive bound");
      const k = bitLength(bound);
      let value = await this.getrandbits(k);
      while (value >= bound) value = await this.getrandbits(k);
      return value;
    }
  }

  /** The call order of 1..size: a Fisher-Yates shuffle fed by the stream labelled "draw". */
  async function drawOrder(seedHex, size) {
    const stream = await Stream.open(seedHex, "draw");
    const items = Array.from({ length: size }, (_, i) => i + 1);
    for (let i = size - 1; i > 0; i -= 1) {
      const j = Number(await stream.randbelow(i + 1));
      [items[i], items[j]] = [items[j], items[i]];
    }
    return items;
  }

  /** The first `count` bytes of the stream `label` (hex): for checking the port. */
  async function streamBytes(seedHex, label, count) {
    const stream = await Stream.open(seedHex, label);
    return bytesToHex(await stream.take(count));
  }

  // -------------------------------------------------------------------------------- Lotería

  const DECK_SIZE = 54;
  const TABLA_CELLS = 16;
  const MAX_DEAL_ATTEMPTS = 64;

  function perm(n, k) {
    let out = 1n;
    for (let i = 0; i < k; i += 1) out *= BigInt(n - i);
    return out;
  }
  const ARRANGEMENTS = perm(DECK_SIZE, TABLA_CELLS);

  /**
   * Deal positions 0..count-1: each tabla is randbelow(54·53·…·39) read as mixed-radix digits
   * of a partial Fisher-Yates shuffle of 1..54; a tabla whose card set was dealt before is
   * drawn again.
   */
  async function dealTablas(seedHex, count) {
    const stream = await Stream.open(seedHex, "deal");
    const seen = new Set();
    const tablas = [];
    while (tablas.length < count) {
      let dealt = null;
      for (let attempt = 0; attempt < MAX_DEAL_ATTEMPTS && dealt === null; attempt += 1) {
        let r = await stream.randbelow(ARRANGEMENTS);
        const pool = Array.from({ length: DECK_SIZE }, (_, i) => i + 1);
        for (let i = 0; i < TABLA_CELLS; i += 1) {
          const radix = BigInt(DECK_SIZE - i);
          const j = Number(r % radix);
          r /= radix;
          [pool[i], pool[i + j]] = [pool[i + j], pool[i]];
        }
        const numbers = pool.slice(0, TABLA_CELLS);
        const key = [...numbers].sort((x, y) => x - y).join(".");
        if (!seen.has(key)) {
          seen.add(key);
          dealt = numbers;
        }
      }
      if (dealt === null) throw new Error("tabla-repeats");
      tablas.push(dealt);
    }
    return tablas;
  }

  function lineShapes() {
    const side = [0, 1, 2, 3];
    const rows = side.map((r) => side.map((c) => r * 4 + c));
    const columns = side.map((c) => side.map((r) => r * 4 + c));
    const diagonals = [side.map((i) => i * 4 + i), side.map((i) => i * 4 + (3 - i))];
    return [...rows, ...columns, ...diagonals];
  }

  function squareShapes() {
    const shapes = [];
    for (let r = 0; r < 3; r += 1) {
      for (let c = 0; c < 3; c += 1) {
        shapes.push([r * 4 + c, r * 4 + c + 1, (r + 1) * 4 + c, (r + 1) * 4 + c + 1]);
      }
    }
    return shapes;
  }

  /** Every cell set (cells 0..15, row-major) completing each pattern. */
  const PATTERN_SHAPES = {
    line: lineShapes(),
    corners: [[0, 3, 12, 15]],
    centre: [[5, 6, 9, 10]],
    square: squareShapes(),
    full: [Array.from({ length: 16 }, (_, i) => i)],
  };

  /** The call number (1-based) at which each pattern is first complete on the tabla, or null. */
  function tablaCompletions(tabla, order, patterns) {
    const callOf = callNumbers(order);
    const out = {};
    for (const pattern of patterns) {
      let best = null;
      for (const shape of PATTERN_SHAPES[pattern]) {
        const done = Math.max(...shape.map((cell) => callOf[tabla[cell]]));
        if (best === null || done < best) best = done;
      }
      out[pattern] = best;
    }
    return out;
  }

  function callNumbers(order) {
    const callOf = [];
    order.forEach((value, index) => {
      callOf[value] = index + 1;
    });
    return callOf;
  }

  // --------------------------------------------------------------------------------- Housie

  const ROWS = 3;
  const COLUMNS = 9;
  const PER_ROW = 5;
  const PER_TICKET = 15;
  const TICKETS_PER_STRIP = 6;
  const COLUMN_FIRST = [1, 10, 20, 30, 40, 50, 60, 70, 80];
  const COLUMN_SIZE = [9, 10, 10, 10, 10, 10, 10, 10, 11];
  const ROW_MASKS = { 3: [7], 2: [3, 5, 6], 1: [1, 2, 4] };

  function slotCounts(a) {
    return [...Array(a).fill(3), ...Array(6 - 2 * a).fill(2), ...Array(3 + a).fill(1)];
  }

  /** Row masks per slot, depth first, each slot trying its masks in ROW_MASKS order. */
  function layouts(counts) {
    const found = [];
    const extend = (prefix, room) => {
      const i = prefix.length;
      if (i === counts.length) {
        if (room.every((x) => x === 0)) found.push(prefix);
        return;
      }
      for (const mask of ROW_MASKS[counts[i]]) {
        const left = [room[0] - (mask & 1), room[1] - ((mask >> 1) & 1), room[2] - (mask >> 2)];
        if (Math.min(...left) >= 0) extend([...prefix, mask], left);
      }
    };
    extend([], [PER_ROW, PER_ROW, PER_ROW]);
    return found;
  }

  /** Lexicographic k-combinations of the list `items`. */
  function combinations(items, k) {
    const out = [];
    const pick = (start, chosen) => {
      if (chosen.length === k) {
        out.push(chosen);
        return;
      }
      for (let i = start; i < items.length; i += 1) pick(i + 1, [...chosen, items[i]]);
    };
    pick(0, []);
    return out;
  }

  const subsetCache = new Map();
  /** The k-element submasks of `mask`, in combinations order of its bits (low bits first). */
  function subsets(mask, k) {
    const key = mask * 4 + k;
    let found = subsetCache.get(key);
    if (!found) {
      const bits = [];
      for (let i = 0; mask >> i; i += 1) if ((mask >> i) & 1) bits.push(1 << i);
      found = combinations(bits, k).map((combo) => combo.reduce((x, y) => x + y, 0));
      subsetCache.set(key, found);
    }
    return found;
  }

  function factorial(n) {
    let out = 1n;
    for (let i = 2n; i <= BigInt(n); i += 1n) out *= i;
    return out;
  }

  function gcd(x, y) {
    return y === 0n ? x : gcd(y, x % y);
  }

  /**
   * The count-matrix sampler (_CountMatrixSampler in engine/housie/sampling.py): matrices
   * with entries 0..2, `rows` rows summing to `rowTotal`, the given column sums, drawn with
   * probability proportional to the product of typeWeights[number of 2s] over the rows.
   */
  function buildSampler(columnSums, rows, rowTotal, typeWeights) {
    const states = new Map();
    const assignments = new Map();

    const assignment = (start, size, twos, ones) => {
      const key = `${start},${size},${twos},${ones}`;
      let table = assignments.get(key);
      if (!table) {
        table = [];
        const members = Array.from({ length: size }, (_, i) => start + i);
        for (const twoSet of combinations(members, twos)) {
          const rest = members.filter((m) => !twoSet.includes(m));
          for (const oneSet of combinations(rest, ones)) {
            const zeroSet = rest.filter((m) => !oneSet.includes(m));
            table.push([...twoSet, ...oneSet, ...zeroSet]);
          }
        }
        assignments.set(key, table);
      }
      return table;
    };

    const choices = (options, i, left) => {
      if (i === options.length) return left === 0 ? [[]] : [];
      const out = [];
      for (const [twos, ones] of options[i]) {
        const spent = 2 * twos + ones;
        if (spent <= left) {
          for (const rest of choices(options, i + 1, left - spent)) out.push([[twos, ones], ...rest]);
        }
      }
      return out;
    };

    const state = (rowsLeft, sums) => {
      const key = `${rowsLeft}|${sums.join(",")}`;
      const known = states.get(key);
      if (known) return known;
      const groups = []; // [value, first position, size]
      for (let p = 0; p < sums.length; ) {
        let q = p;
        while (q < sums.length && sums[q] === sums[p]) q += 1;
        groups.push([sums[p], p, q - p]);
        p = q;
      }
      const limit = 2 * (rowsLeft - 1);
      const options = groups.map(([value, , size]) => {
        const found = [];
        for (let twos = 0; twos <= size; twos += 1) {
          for (let ones = 0; ones <= size - twos; ones += 1) {
            const zeros = size - twos - ones;
            if (twos && !(value >= 2 && value <= limit + 2)) continue;
            if (ones && !(value >= 1 && value <= limit + 1)) continue;
            if (zeros && value > limit) continue;
            found.push([twos, ones]);
          }
        }
        return found;
      });
      const decisions = [];
      let start = 0n;
      for (const choice of choices(options, 0, rowTotal)) {
        const parts = groups.map(([value, first, size], g) => {
          const [twos, ones] = choice[g];
          const zeros = size - twos - ones;
          const table = assignment(first, size, twos, ones);
          return {
            ways: table.length,
            table,
            sums: [
              ...Array(twos).fill(value - 2),
              ...Array(ones).fill(value - 1),
              ...Array(zeros).fill(value),
            ],
            entries: [...Array(twos).fill(2), ...Array(ones).fill(1), ...Array(zeros).fill(0)],
          };
        });
        // Single-way groups first (a stable sort keeps group order within each kind).
        parts.sort((x, y) => (x.ways > 1) - (y.ways > 1));
        const canonValues = parts.flatMap((part) => part.sums);
        const entries = parts.flatMap((part) => part.entries);
        const fixed = parts.filter((part) => part.ways === 1).flatMap((part) => part.table[0]);
        const varying = parts.filter((part) => part.ways > 1).map((part) => [part.ways, part.table]);
        const within = varying.reduce((n, [ways]) => n * ways, 1);
        const rowType = entries.filter((e) => e === 2).length;
        let next = null;
        let completions = 1n;
        if (rowsLeft > 1) {
          next = state(rowsLeft - 1, [...canonValues].sort((x, y) => x - y));
          completions = next.total;
        }
        if (completions === 0n) continue;
        const typeWeight = typeWeights[rowType];
        const weight = BigInt(typeWeight) * BigInt(within) * completions;
        const slotOrder = [2, 1, 0].flatMap((entry) =>
          entries.flatMap((e, p) => (e === entry ? [p] : [])),
        );
        const reorder = canonValues
          .map((value, p) => [value, p])
          .sort((x, y) => x[0] - y[0] || x[1] - y[1])
          .map(([, p]) => p);
        decisions.push({
          start,
          weight,
          end: start + weight,
          type: rowType,
          typeWeight: BigInt(typeWeight),
          within: BigInt(within),
          fixed,
          varying,
          slotOrder,
          reorder,
          next,
        });
        start += weight;
      }
      const made = { decisions, total: start };
      states.set(key, made);
      return made;
    };

    const initialColumns = Array.from(columnSums.keys()).sort(
      (x, y) => columnSums[x] - columnSums[y] || x - y,
    );
    const root = state(
      rows,
      initialColumns.map((c) => columnSums[c]),
    );

    /** Per row: [number of 2s, its columns in slot order (2s, then 1s, then 0s)]. */
    const sample = (matrixIndex) => {
      let index = matrixIndex;
      let current = root;
      let columns = initialColumns;
      const plan = [];
      while (current) {
        const { decisions } = current;
        let low = 0;
        let high = decisions.length - 1;
        while (low < high) {
          const middle = (low + high) >> 1;
          if (decisions[middle].end > index) high = middle;
          else low = middle + 1;
        }
        const decision = decisions[low];
        const offset = index - decision.start;
        let within = Number(offset % decision.within);
        index = offset / decision.within / decision.typeWeight;
        const positions = [...decision.fixed];
        for (const [radix, table] of decision.varying) {
          positions.push(...table[within % radix]);
          within = Math.floor(within / radix);
        }
        const canon = positions.map((p) => columns[p]);
        plan.push([decision.type, decision.slotOrder.map((p) => canon[p])]);
        columns = decision.reorder.map((p) => canon[p]);
        current = decision.next;
      }
      return plan;
    };

    return { root, total: root.total, sample, stateCount: () => states.size };
  }

  let stripTables = null;
  /** Layouts, type weights, the sampler and the fill counts, built on first use. */
  function housieTables() {
    if (stripTables) return stripTables;
    const types = [0, 1, 2, 3];
    const layoutTable = types.map((a) => layouts(slotCounts(a)));
    const ratios = types.map((a) => {
      const numerator = BigInt(layoutTable[a].length);
      const denominator = slotCounts(a).reduce((n, k) => n * factorial(k), 1n);
      const divisor = gcd(numerator, denominator);
      return [numerator / divisor, denominator / divisor];
    });
    const scale = ratios.reduce((l, [, d]) => (l * d) / gcd(l, d), 1n);
    const weights = ratios.map(([n, d]) => (n * scale) / d);
    const sampler = buildSampler(
      COLUMN_SIZE.map((size) => size - TICKETS_PER_STRIP),
      TICKETS_PER_STRIP,
      PER_TICKET - COLUMNS,
      weights.map(Number),
    );
    const numerator = COLUMN_SIZE.reduce((n, size) => n * factorial(size), 1n);
    const denominator = scale ** BigInt(TICKETS_PER_STRIP);
    const completions = (ticketTypes) =>
      (numerator * ticketTypes.reduce((n, a) => n * weights[a], 1n)) / denominator;
    stripTables = { layouts: layoutTable, weights, scale, sampler, completions };
    return stripTables;
  }

  /** Six tickets from the count-matrix plan and the fill integer (see docs/FAIRNESS.md). */
  function fillStrip(plan, fillIndex) {
    const { layouts: layoutTable } = housieTables();
    const remaining = COLUMN_SIZE.map((size) => (1 << size) - 1);
    let index = fillIndex;
    return plan.map(([a, slots], t) => {
      const count = BigInt(layoutTable[a].length);
      const pattern = layoutTable[a][Number(index % count)];
      index /= count;
      const counts = slotCounts(a);
      const columns = Array(COLUMNS);
      slots.forEach((c, slot) => {
        let chosen = remaining[c];
        if (t < plan.length - 1) {
          const choices = subsets(remaining[c], counts[slot]);
          const radix = BigInt(choices.length);
          chosen = choices[Number(index % radix)];
          index /= radix;
          remaining[c] ^= chosen;
        }
        const numbers = [];
        for (let i = 0; chosen >> i; i += 1) if ((chosen >> i) & 1) numbers.push(COLUMN_FIRST[c] + i);
        const cells = [0, 0, 0];
        for (let r = 0; r < ROWS; r += 1) if ((pattern[slot] >> r) & 1) cells[r] = numbers.shift();
        columns[c] = cells;
      });
      return [0, 1, 2].map((r) => columns.map((column) => column[r]));
    });
  }

  /** One strip from the stream: [matrix index, plan, fill bound, fill index, tickets]. */
  async function nextStrip(stream) {
    const { sampler, completions } = housieTables();
    const matrixIndex = await stream.randbelow(sampler.total);
    const plan = sampler.sample(matrixIndex);
    const fillBound = completions(plan.map(([a]) => a));
    const fillIndex = await stream.randbelow(fillBound);
    return { matrixIndex, plan, fillBound, fillIndex, tickets: fillStrip(plan, fillIndex) };
  }

  /** The first `count` strips of a game, with their intermediate values (for the documented test vector). */
  async function dealStrips(seedHex, count) {
    const stream = await Stream.open(seedHex, "deal");
    const strips = [];
    for (let i = 0; i < count; i += 1) strips.push(await nextStrip(stream));
    return strips;
  }

  /** Tickets at deal positions 0..count-1: position k is ticket k % 6 of strip k // 6. */
  async function dealTickets(seedHex, count) {
    const strips = await dealStrips(seedHex, Math.ceil(count / TICKETS_PER_STRIP));
    return strips.flatMap((strip) => strip.tickets).slice(0, count);
  }

  // ---------------------------------------------------------------------- ticket ranks, codes

  let rankTables = null;
  /** engine/housie/sampling.py's _ticket_tables: column-count vectors and where each begins. */
  function ticketRankTables() {
    if (rankTables) return rankTables;
    const layoutTable = [0, 1, 2, 3].map((a) => layouts(slotCounts(a)));
    const layoutIndex = layoutTable.map((group) => new Map(group.map((l, i) => [l.join(","), i])));
    const vectors = [];
    const extend = (prefix) => {
      if (prefix.length === COLUMNS) {
        if (prefix.reduce((x, y) => x + y, 0) === PER_TICKET) vectors.push(prefix);
        return;
      }
      for (const count of [1, 2, 3]) extend([...prefix, count]);
    };
    extend([]); // itertools.product((1, 2, 3), repeat=9): lexicographic
    const vectorIndex = new Map(vectors.map((v, i) => [v.join(""), i]));
    const vectorType = vectors.map((v) => v.filter((k) => k === 3).length);
    const vectorSlots = vectors.map((v) =>
      [3, 2, 1].flatMap((k) => [...v.keys()].filter((c) => v[c] === k)),
    );
    const ends = [];
    let total = 0n;
    vectors.forEach((v, i) => {
      let count = BigInt(layoutTable[vectorType[i]].length);
      v.forEach((k, c) => {
        count *= BigInt(subsets((1 << COLUMN_SIZE[c]) - 1, k).length);
      });
      total += count;
      ends.push(total);
    });
    rankTables = { layouts: layoutTable, layoutIndex, vectorIndex, vectorType, vectorSlots, ends, total };
    return rankTables;
  }

  /** How many valid tickets there are (engine: ticket_count()), a BigInt. */
  function ticketCount() {
    return ticketRankTables().total;
  }

  /** The ticket's number in 0 .. ticketCount() - 1 (engine: ticket_rank), a BigInt. */
  function ticketRank(ticket) {
    const tables = ticketRankTables();
    const counts = [...Array(COLUMNS).keys()].map((c) => ticket.filter((row) => row[c]).length);
    const v = tables.vectorIndex.get(counts.join(""));
    if (v === undefined) throw new Error(`not a ticket: ${ticketState(ticket)}`);
    const a = tables.vectorType[v];
    const slots = tables.vectorSlots[v];
    const pattern = slots.map((c) => ticket.reduce((mask, row, r) => mask | (row[c] ? 1 << r : 0), 0));
    const digits = [[tables.layoutIndex[a].get(pattern.join(",")), tables.layouts[a].length]];
    slotCounts(a).forEach((k, slot) => {
      const c = slots[slot];
      const chosen = ticket.reduce((mask, row) => mask | (row[c] ? 1 << (row[c] - COLUMN_FIRST[c]) : 0), 0);
      const choices = subsets((1 << COLUMN_SIZE[c]) - 1, k);
      digits.push([choices.indexOf(chosen), choices.length]);
    });
    let offset = 0n;
    for (const [digit, radix] of digits.reverse()) offset = offset * BigInt(radix) + BigInt(digit);
    return (v ? tables.ends[v - 1] : 0n) + offset;
  }

  const CODE_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"; // Crockford base32: no I, L, O, U
  const CODE_TAG_BITS = 64n;
  const MAX_CODE_LENGTH = 64;

  /**
   * The game number and ticket rank a Housie ticket code names (engine/housie/codes.py's
   * decode_ticket_code, read the same way), as BigInts. The code's 64-bit tag is left unchecked:
   * that needs the server's signing key. Throws an Error whose `key` names the problem
   * ("code-length", "code-character", "code-leading-zeros") and whose `values` give the details.
   */
  function readTicketCode(code) {
    const problem = (key, values = {}) => Object.assign(new Error(key), { key, values });
    const text = String(code)
      .toUpperCase()
      .replace(/O/g, "0")
      .replace(/[IL]/g, "1")
      .replace(/[-\s]/g, "");
    const shortest = Math.ceil((bitLength(ticketCount()) + Number(CODE_TAG_BITS)) / 5);
    if (text.length < shortest || text.length > MAX_CODE_LENGTH) {
      throw problem("code-length", { length: text.length, shortest, longest: MAX_CODE_LENGTH });
    }
    let value = 0n;
    [...text].forEach((ch, i) => {
      const digit = CODE_ALPHABET.indexOf(ch);
      if (digit < 0) throw problem("code-character", { position: i + 1, character: ch });
      value = (value << 5n) | BigInt(digit);
    });
    if (value.toString(32).length < text.length && text.length > shortest) {
      throw problem("code-leading-zeros");
    }
    const payload = value >> CODE_TAG_BITS;
    return { game: payload / ticketCount(), rank: payload % ticketCount() };
  }

  /** A ticket's rows as the engine's text form: each row's 5 numbers, 2 digits, "/" between. */
  function ticketState(ticket) {
    return ticket
      .map((row) => row.filter((n) => n).map((n) => String(n).padStart(2, "0")).join(""))
      .join("/");
  }

  /** The numbers that make each prize on a ticket (Early Five: any 5 of all 15). */
  function ticketPrizeNumbers(ticket) {
    const [top, middle, bottom] = ticket.map((row) => row.filter((n) => n));
    const all = [...top, ...middle, ...bottom];
    return {
      E5: all,
      TL: top,
      ML: middle,
      BL: bottom,
      FC: [top[0], top[PER_ROW - 1], bottom[0], bottom[PER_ROW - 1]],
      FH: all,
    };
  }

  /** The call number at which the ticket first completes each prize (houses: FH), or null. */
  function ticketCompletions(ticket, order, prizes) {
    const callOf = callNumbers(order);
    const numbers = ticketPrizeNumbers(ticket);
    const out = {};
    for (const prize of prizes) {
      const key = prize === "H2" || prize === "H3" ? "FH" : prize;
      const calls = numbers[key].map((n) => callOf[n]).sort((x, y) => x - y);
      out[prize] = key === "E5" ? calls[4] : calls[calls.length - 1];
    }
    return out;
  }


  // ---------------------------------------------------------------------------------- Bingo

  const BINGO_SIDE = 5;
  const BINGO_CELLS = 25;
  const FREE_CELL = 12;
  const FREE_BIT = 1 << FREE_CELL;
  const ALL_CELLS = (1 << BINGO_CELLS) - 1;
  const COLUMN_SPAN = 15;
  const BINGO_LETTERS = "BINGO";
  // Per column, the rows its numbers fill top to bottom: N's 4 skip the free centre.
  const BINGO_COLUMN_ROWS = [0, 1, 2, 3, 4].map((c) => (c === 2 ? [0, 1, 3, 4] : [0, 1, 2, 3, 4]));
  const CARD_ARRANGEMENTS = BINGO_COLUMN_ROWS.reduce((n, rows) => n * perm(COLUMN_SPAN, rows.length), 1n);

  /** A call's name, "B-7" style: the column's letter, a hyphen, the number. */
  function callName(number) {
    return `${BINGO_LETTERS[Math.floor((number - 1) / COLUMN_SPAN)]}-${number}`;
  }

  /**
   * The card of one integer r < CARD_ARRANGEMENTS: its 25 cells row-major, 0 at the free centre.
   * For each column B..O, a partial Fisher-Yates shuffle of its 15 numbers fed by mixed-radix
   * digits of r: r, j = divmod(r, 15 - i); swap pool[i] and pool[i + j].
   */
  function cardFrom(value) {
    let r = value;
    const numbers = Array(BINGO_CELLS).fill(0);
    BINGO_COLUMN_ROWS.forEach((rows, column) => {
      const low = column * COLUMN_SPAN + 1;
      const pool = Array.from({ length: COLUMN_SPAN }, (_, i) => low + i);
      rows.forEach((row, i) => {
        const radix = BigInt(COLUMN_SPAN - i);
        const j = Number(r % radix);
        r /= radix;
        [pool[i], pool[i + j]] = [pool[i + j], pool[i]];
        numbers[row * BINGO_SIDE + column] = pool[i];
      });
    });
    return numbers;
  }

  /**
   * Deal positions 0..count-1: each card is randbelow(CARD_ARRANGEMENTS) of the stream "deal";
   * a card whose set of numbers was dealt before is drawn again.
   */
  async function dealCards(seedHex, count) {
    const stream = await Stream.open(seedHex, "deal");
    const seen = new Set();
    const cards = [];
    while (cards.length < count) {
      let dealt = null;
      for (let attempt = 0; attempt < MAX_DEAL_ATTEMPTS && dealt === null; attempt += 1) {
        const numbers = cardFrom(await stream.randbelow(CARD_ARRANGEMENTS));
        const key = numbers.filter((n) => n).sort((x, y) => x - y).join(".");
        if (!seen.has(key)) {
          seen.add(key);
          dealt = numbers;
        }
      }
      if (dealt === null) throw new Error("card-repeats");
      cards.push(dealt);
    }
    return cards;
  }

  /** A card as the engine stores it: column by column (B top to bottom, I, ...), centre "*". */
  function cardState(numbers) {
    const out = [];
    for (let column = 0; column < BINGO_SIDE; column += 1) {
      for (let cell = column; cell < BINGO_CELLS; cell += BINGO_SIDE) {
        out.push(cell === FREE_CELL ? "*" : String(numbers[cell]));
      }
    }
    return out.join(".");
  }

  /** A 5x5 drawing ("X" marked, "." not, spaces ignored) as a 25-bit cell mask (bit = cell). */
  function drawingMask(drawing) {
    const marks = drawing.replace(/\s+/g, "");
    let mask = 0;
    [...marks].forEach((mark, cell) => {
      if (mark === "X") mask |= 1 << cell;
    });
    return mask;
  }

  /** `mask` turned 90 degrees clockwise about the centre: (row, col) -> (col, 4 - row). */
  function rotateMask(mask) {
    let turned = 0;
    for (let cell = 0; cell < BINGO_CELLS; cell += 1) {
      if ((mask >> cell) & 1) {
        const row = Math.floor(cell / BINGO_SIDE);
        const column = cell % BINGO_SIDE;
        turned |= 1 << (column * BINGO_SIDE + (BINGO_SIDE - 1 - row));
      }
    }
    return turned;
  }

  /** `mask` moved to every position where its bounding box fits on the card. */
  function translations(mask) {
    const cells = [];
    for (let cell = 0; cell < BINGO_CELLS; cell += 1) {
      if ((mask >> cell) & 1) cells.push([Math.floor(cell / BINGO_SIDE), cell % BINGO_SIDE]);
    }
    const top = Math.min(...cells.map(([r]) => r));
    const left = Math.min(...cells.map(([, c]) => c));
    const height = Math.max(...cells.map(([r]) => r)) - top + 1;
    const width = Math.max(...cells.map(([, c]) => c)) - left + 1;
    const out = [];
    for (let down = 0; down <= BINGO_SIDE - height; down += 1) {
      for (let across = 0; across <= BINGO_SIDE - width; across += 1) {
        out.push(cells.reduce((m, [r, c]) => m | (1 << ((r - top + down) * BINGO_SIDE + c - left + across)), 0));
      }
    }
    return out;
  }

  /** Every placement of one drawing: itself, its turns when `rotations`, each moved anywhere
   * it fits when `anywhere`; without repeats, increasing. */
  function placements(mask, rotations, anywhere) {
    const shapes = [mask];
    if (rotations) for (let i = 0; i < 3; i += 1) shapes.push(rotateMask(shapes[shapes.length - 1]));
    const found = new Set();
    for (const shape of shapes) for (const placed of anywhere ? translations(shape) : [shape]) found.add(placed);
    return [...found].sort((x, y) => x - y);
  }

  /** engine/bingo.py's pattern book: each built-in's masks, from the same drawings. */
  const BINGO_BOOK = (() => {
    const book = {};
    const add = (code, drawings, rotations = false, anywhere = false) => {
      const masks = new Set();
      for (const drawing of drawings) for (const m of placements(drawingMask(drawing), rotations, anywhere)) masks.add(m);
      book[code] = [...masks].sort((x, y) => x - y);
    };
    const row = "XXXXX ..... ..... ..... .....";
    const diagonal = "X.... .X... ..X.. ...X. ....X";
    const stamp = "XX... XX... ..... ..... .....";
    const letterT = "XXXXX ..X.. ..X.. ..X.. ..X..";
    const letterL = "X.... X.... X.... X.... XXXXX";
    const letterH = "X...X X...X XXXXX X...X X...X";
    add("line", [row, diagonal], true, true);
    add("corners", ["X...X ..... ..... ..... X...X"]);
    add("x", ["X...X .X.X. ..X.. .X.X. X...X"]);
    add("plus", ["..X.. ..X.. XXXXX ..X.. ..X.."]);
    add("stamp", [stamp], true);
    add("any_stamp", [stamp], false, true);
    add("small_diamond", ["..... ..X.. .XXX. ..X.. ....."]);
    add("large_diamond", ["..X.. .X.X. X...X .X.X. ..X.."]);
    add("frame", ["XXXXX X...X X...X X...X XXXXX"]);
    add("inner_frame", ["..... .XXX. .X.X. .XXX. ....."]);
    add("letter_t", [letterT]);
    add("any_t", [letterT], true);
    add("letter_l", [letterL]);
    add("any_l", [letterL], true);
    add("letter_h", [letterH]);
    add("any_h", [letterH], true);
    add("blackout", ["XXXXX XXXXX XXXXX XXXXX XXXXX"]);
    return book;
  })();

  const PATTERN_CODE = /^[a-z0-9][a-z0-9_-]{0,31}$/;
  const PATTERN_NAME_LIMIT = 40;
  // Python's str.isprintable: no control, format, unassigned or private-use character, and no
  // separator but the plain space.
  const PRINTABLE = /^(?:[^\p{C}\p{Z}]| )*$/u;

  /**
   * A custom pattern from its text form (engine/bingo.py's Pattern.from_text, custom only):
   * "code=name=mask+mask+...", masks as 7 lower-case hex digits, increasing. Returns
   * {code, name, masks}; throws an Error whose `key` says what is wrong ("pattern-form",
   * "pattern-code", "pattern-name", "pattern-mask", "pattern-builtin").
   */
  function readPattern(text) {
    const problem = (key) => Object.assign(new Error(key), { key, values: { value: text } });
    const parts = String(text).split("=");
    if (parts.length !== 3) throw problem("pattern-form");
    const [code, name, maskText] = parts;
    const maskTexts = maskText.split("+");
    if (!maskTexts.every((m) => /^[0-9a-f]{7}$/.test(m))) throw problem("pattern-form");
    if (!PATTERN_CODE.test(code)) throw problem("pattern-code");
    if (code in BINGO_BOOK) throw problem("pattern-builtin");
    if (
      !name ||
      [...name].length > PATTERN_NAME_LIMIT ||
      name !== name.trim() ||
      !PRINTABLE.test(name) ||
      /[/,=+]/.test(name)
    ) {
      throw problem("pattern-name");
    }
    const masks = maskTexts.map((m) => parseInt(m, 16));
    masks.forEach((mask, i) => {
      if (mask > ALL_CELLS || !(mask & ~FREE_BIT) || (i && mask <= masks[i - 1])) throw problem("pattern-mask");
    });
    return { code, name, masks };
  }

  /**
   * The call number (1-based) at which the card first completes each pattern, or null:
   * for each placement, the last of its numbers to be called (the free centre is marked from
   * the start); the earliest over the placements. `patterns` maps each code to its masks.
   */
  function cardCompletions(numbers, order, patterns) {
    const callOf = callNumbers(order);
    const out = {};
    for (const [code, masks] of Object.entries(patterns)) {
      let best = null;
      for (const mask of masks) {
        let done = 0;
        for (let cell = 0; cell < BINGO_CELLS; cell += 1) {
          if ((mask >> cell) & 1 && cell !== FREE_CELL) done = Math.max(done, callOf[numbers[cell]]);
        }
        if (best === null || done < best) best = done;
      }
      out[code] = best;
    }
    return out;
  }

  return {
    SEED_BYTES,
    DECK_SIZE,
    PATTERN_SHAPES,
    bytesToHex,
    hexToBytes,
    sha256Plain,
    hmacSha256Plain,
    sha256,
    cryptoName,
    useCrypto,
    commitment,
    parseSeed,
    Stream,
    streamBytes,
    drawOrder,
    dealTablas,
    tablaCompletions,
    housieTables,
    layouts,
    slotCounts,
    subsets,
    fillStrip,
    dealStrips,
    dealTickets,
    ticketState,
    ticketCompletions,
    ticketCount,
    ticketRank,
    readTicketCode,
    BINGO_BOOK,
    CARD_ARRANGEMENTS,
    callName,
    cardFrom,
    dealCards,
    cardState,
    placements,
    readPattern,
    cardCompletions,
  };
})();

if (typeof module !== "undefined") module.exports = GamenightEngine;
