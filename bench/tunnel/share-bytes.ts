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
 * link's does. With a batch window (Settings → RMS), a record holds the shares of the window its
 * first share opened, and the answers to a record's shares come back together and wait likewise.
 * Between RMS3 ends of tunnel version 4, each miner's lines go through its own line encoders, as the
 * tunnel session sends them (compact lines); the rows of version 3 show the same without.
 * Deterministic: a fixed seed, no sockets, no timing.
 *
 * Usage: bun bench/tunnel/share-bytes.ts [shares=20000]
 */
import { Direction, FrameSealer, KENC_VERSION } from "../../appliance/engine/transport/kenc-codec.ts";
import {
  BATCH_VERSION,
  COMPACT_LINES_VERSION,
  encodeFrame,
  FrameType,
  TUNNEL_VERSION,
} from "../../appliance/engine/transport/tunnel/frames.ts";
import { LineEncoder } from "../../appliance/engine/transport/tunnel/line-codec.ts";
import { RecordWriter, VARIANTS } from "../../appliance/engine/transport/tunnel/records.ts";

const SHARES = Number(process.argv[2] ?? 20_000);
const MINERS = 1000;
const SHARE_S = 15;
const JOB_S = 30;
const KEY = new Uint8Array(32).fill(7);
/** the tunnel and KENC versions of a link: this release's, and the first */
interface Link {
  tunnel: number;
  kenc: number;
}
const LINKS: Link[] = [
  { tunnel: TUNNEL_VERSION, kenc: KENC_VERSION },
  { tunnel: BATCH_VERSION, kenc: KENC_VERSION },
  { tunnel: 1, kenc: 1 },
];
/** the batch windows of the RMS settings to compare with none */
const WINDOWS_MS = [50, 100, 250, 500, 1000];

const RMS3 = VARIANTS.find((v) => v.compact) as (typeof VARIANTS)[number];

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
  /** records that carried shares */
  records: number;
}

/** Frames one end holds for its next record, and when the first of them came (farm seconds). */
class Pending {
  frames: Uint8Array[] = [];
  since = 0;
  constructor(
    private readonly writer: RecordWriter,
    private readonly sealer: FrameSealer,
  ) {}
  /** the record of what is held, sealed; its bytes on the wire */
  flush(): number {
    if (this.frames.length === 0) return 0;
    const bytes = this.sealer.seal(this.writer.record(Buffer.concat(this.frames))).length;
    this.frames = [];
    return bytes;
  }
}

function run(variant: (typeof VARIANTS)[number], link: Link, windowS: number): Cost {
  // every row replays the same farm
  seed = SEED;
  const downWriter = new RecordWriter(variant, link.tunnel);
  const downSeal = new FrameSealer(KEY, Direction.serverToClient, link.kenc);
  const up = new Pending(
    new RecordWriter(variant, link.tunnel),
    new FrameSealer(KEY, Direction.clientToServer, link.kenc),
  );
  const down = new Pending(downWriter, downSeal);
  const data = (stream: number, line: string) =>
    encodeFrame({ type: FrameType.data, stream, bytes: Buffer.from(line) });
  // a miner's lines each way as the tunnel session sends them: compact lines (RMS3 from version 4) or data
  const compact = variant.compact && link.tunnel >= COMPACT_LINES_VERSION;
  const encoders = (): LineEncoder[] => Array.from({ length: MINERS }, () => new LineEncoder());
  const [upLines, downLines] = [encoders(), encoders()];
  const lineFrames = (lines: LineEncoder[], m: number, line: string): Uint8Array => {
    if (!compact) return data(m + 1, line);
    const parts = (lines[m] as LineEncoder)
      .encode(Buffer.from(line))
      .map((p) =>
        p instanceof Uint8Array
          ? encodeFrame({ type: FrameType.data, stream: m + 1, bytes: p })
          : p.fields !== undefined
            ? encodeFrame({ type: FrameType.fields, stream: m + 1, slot: p.slot, body: p.fields })
            : encodeFrame({ type: FrameType.line, stream: m + 1, slot: p.slot, bytes: p.line }),
      );
    return Buffer.concat(parts);
  };
  const ids = new Array<number>(MINERS).fill(4);
  const en2 = new Array<number>(MINERS).fill(0);
  const en1 = Array.from({ length: MINERS }, () => hex(4));
  // the first minute fills the history; count from there
  const counted = (since: number) => since >= 60;
  const cost: Cost = { up: 0, down: 0, plain: 0, records: 0 };
  const flushUp = () => {
    const since = up.since;
    const bytes = up.flush();
    if (counted(since) && bytes > 0) {
      cost.up += bytes;
      cost.records++;
    }
  };
  const flushDown = () => {
    const since = down.since;
    const bytes = down.flush();
    if (counted(since)) cost.down += bytes;
  };
  // events in farm time: a notify per miner per job, shares at exponential intervals
  let job = 1;
  let nextJob = 0;
  let t = 0;
  for (let n = 0; n < SHARES; ) {
    t += -Math.log(1 - random()) * (SHARE_S / MINERS);
    while (nextJob <= t) {
      // a job goes at once (its record is over the batch threshold) and takes held answers with it
      flushDown();
      for (let m = 0; m < MINERS; m++)
        downSeal.seal(downWriter.record(lineFrames(downLines, m, notify(job, en1[m] as string))));
      job++;
      nextJob += JOB_S;
    }
    const m = Math.floor(random() * MINERS);
    const id = (ids[m] as number) + 1;
    ids[m] = id;
    en2[m] = (en2[m] as number) + 1;
    const submit = `{"params":["wal.rig${m}","${(job - 1).toString(16)}","${(en2[m] as number).toString(16).padStart(8, "0")}","${(0x6553f100 + (job - 1) * 30).toString(16)}","${hex(4)}"],"id":${id},"method":"mining.submit"}\n`;
    const answer = `{"id":${id},"result":true,"error":null}\n`;
    // a share waits for the window that its record's first share opened; without one it goes alone
    if (up.frames.length > 0 && t >= up.since + windowS) flushUp();
    if (up.frames.length === 0) up.since = t;
    up.frames.push(lineFrames(upLines, m, submit));
    // its answer comes back when its record reached the port (the pool's own time is the same for all)
    const answered = up.since + windowS;
    if (down.frames.length > 0 && answered >= down.since + windowS) flushDown();
    if (down.frames.length === 0) down.since = answered;
    down.frames.push(lineFrames(downLines, m, answer));
    if (!counted(t)) continue;
    cost.plain += submit.length + answer.length;
    n++;
  }
  flushUp();
  flushDown();
  return cost;
}

console.log(
  `${SHARES.toLocaleString("en")} shares of ${MINERS} miners; bytes per share round trip (KENC framing included), each share and each answer alone in its record or, with a batch window, with those of the window`,
);
console.log(
  "| variant | tunnel and KENC version | batch window | shares per record | up (share) | down (answer) | round trip | plain stratum | plain ÷ this |",
);
console.log("| --- | --- | --- | --- | --- | --- | --- | --- | --- |");
const row = (variant: (typeof VARIANTS)[number], link: Link, windowMs: number) => {
  const c = run(variant, link, windowMs / 1000);
  const trip = (c.up + c.down) / SHARES;
  console.log(
    `| ${variant.name} | ${link.tunnel} and ${link.kenc} | ${windowMs} ms | ${(SHARES / c.records).toFixed(1)} | ${(c.up / SHARES).toFixed(1)} | ${(c.down / SHARES).toFixed(1)} | ${trip.toFixed(1)} | ${(c.plain / SHARES).toFixed(1)} | ${(c.plain / SHARES / trip).toFixed(2)}× |`,
  );
};
for (const variant of VARIANTS.filter((v) => v.kinds.length > 0))
  for (const link of LINKS) row(variant, link, 0);
for (const variant of VARIANTS.filter((v) => v.kinds.length > 0))
  for (const windowMs of WINDOWS_MS) row(variant, LINKS[0] as Link, windowMs);
for (const windowMs of WINDOWS_MS) row(RMS3, LINKS[1] as Link, windowMs);
