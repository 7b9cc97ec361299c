/**
 * What one share and its answer cost on a tunnel's wire when each travels alone in its record, as a
 * farm's independent shares mostly do (docs/benchmarks.md, "RMS tunnel"). The wire-bytes bench runs
 * miners, pool and both tunnel ends in one process, whose long event-loop turns put about two shares
 * in a record, and its hashing miners' nonces are small numbers; this one has neither artefact.
 *
 * A farm of 1,000 miners on an Efficient-mode port, replayed through the real record writers and KENC
 * sealers of both ends: each miner gets its own notify every 30 s, and submits shares at random
 * moments (one every 15 s on average) with a random 32-bit nonce and its own extranonce2 counter;
 * each share and each answer is its own record, so the history (the dictionary) holds what a real
 * link's does. Deterministic: a fixed seed, no sockets, no timing.
 *
 * Usage: bun bench/tunnel/share-bytes.ts [shares=20000]
 */
import { Direction, FrameSealer, KENC_VERSION } from "../../appliance/engine/transport/kenc-codec.ts";
import { encodeFrame, FrameType, TUNNEL_VERSION } from "../../appliance/engine/transport/tunnel/frames.ts";
import { RecordWriter, VARIANTS } from "../../appliance/engine/transport/tunnel/records.ts";

const SHARES = Number(process.argv[2] ?? 20_000);
const MINERS = 1000;
const SHARE_S = 15;
const JOB_S = 30;
const KEY = new Uint8Array(32).fill(7);

const SEED = 20261123;
let seed = SEED;
const random = () => {
  seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
  return seed / 2 ** 32;
};
const hex = (bytes: number) =>
  Array.from({ length: bytes }, () =>
    Math.floor(random() * 256)
      .toString(16)
      .padStart(2, "0"),
  ).join("");

/** a job as a pool sends it: a new id, the same previous block, a fresh coinbase and branch */
const notify = (job: number, en1: string) =>
  `{"id":null,"method":"mining.notify","params":["${job.toString(16)}","4d16b6f85af6e2198f44ae2a6de67f78487ae5611b77c6c0440b921e00000000","01000000010000000000000000000000000000000000000000000000000000000000000000ffffffff20020862062f503253482f04b8864e5008${en1}","072f736c7573682f000000000100f2052a010000001976a914d23fcdf86f7e756a64a7a9688ef9903327048ed988ac00000000",[${Array.from({ length: 6 }, () => `"${hex(32)}"`).join(",")}],"20000000","1703a30c","${(0x6553f100 + job * 30).toString(16)}",false]}\n`;

interface Cost {
  up: number;
  down: number;
  plain: number;
}

function run(variant: (typeof VARIANTS)[number], version: number): Cost {
  // every row replays the same farm
  seed = SEED;
  const up = new RecordWriter(variant, version);
  const down = new RecordWriter(variant, version);
  const upSeal = new FrameSealer(KEY, Direction.clientToServer, version);
  const downSeal = new FrameSealer(KEY, Direction.serverToClient, version);
  const wire = (w: RecordWriter, s: FrameSealer, stream: number, line: string) =>
    s.seal(w.record(encodeFrame({ type: FrameType.data, stream, bytes: Buffer.from(line) }))).length;
  const ids = new Array<number>(MINERS).fill(4);
  const en2 = new Array<number>(MINERS).fill(0);
  const en1 = Array.from({ length: MINERS }, () => hex(4));
  // events in farm time: a notify per miner per job, shares at exponential intervals
  let job = 1;
  let nextJob = 0;
  let t = 0;
  const cost: Cost = { up: 0, down: 0, plain: 0 };
  for (let n = 0; n < SHARES; ) {
    t += -Math.log(1 - random()) * (SHARE_S / MINERS);
    while (nextJob <= t) {
      for (let m = 0; m < MINERS; m++) wire(down, downSeal, m + 1, notify(job, en1[m] as string));
      job++;
      nextJob += JOB_S;
    }
    const m = Math.floor(random() * MINERS);
    const id = (ids[m] as number) + 1;
    ids[m] = id;
    en2[m] = (en2[m] as number) + 1;
    const submit = `{"params":["wal.rig${m}","${(job - 1).toString(16)}","${(en2[m] as number).toString(16).padStart(8, "0")}","${(0x6553f100 + (job - 1) * 30).toString(16)}","${hex(4)}"],"id":${id},"method":"mining.submit"}\n`;
    const answer = `{"id":${id},"result":true,"error":null}\n`;
    const u = wire(up, upSeal, m + 1, submit);
    const d = wire(down, downSeal, m + 1, answer);
    // the first minute fills the history; count from there
    if (t < 60) continue;
    cost.up += u;
    cost.down += d;
    cost.plain += submit.length + answer.length;
    n++;
  }
  return cost;
}

console.log(
  `${SHARES.toLocaleString("en")} shares of ${MINERS} miners, each share and each answer alone in its record; bytes per share round trip (KENC framing included)`,
);
console.log(
  "| variant | tunnel and KENC version | up (share) | down (answer) | round trip | plain stratum | plain ÷ this |",
);
console.log("| --- | --- | --- | --- | --- | --- | --- |");
for (const variant of VARIANTS.filter((v) => v.kinds.length > 0))
  for (const version of [...new Set([TUNNEL_VERSION, KENC_VERSION, 1])]) {
    const c = run(variant, version);
    const trip = (c.up + c.down) / SHARES;
    console.log(
      `| ${variant.name} | ${version} | ${(c.up / SHARES).toFixed(1)} | ${(c.down / SHARES).toFixed(1)} | ${trip.toFixed(1)} | ${(c.plain / SHARES).toFixed(1)} | ${(c.plain / SHARES / trip).toFixed(2)}× |`,
    );
  }
