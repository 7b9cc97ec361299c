/**
 * The notify lines of the prefix families and EthereumStratum, joined from the job id and the rest
 * of the line that sessions given one pool job share: read back as JSON, each carries its own job id
 * and exactly its work's params, whatever the order in which sessions ask.
 */
import { describe, expect, test } from "bun:test";
import { EqJob } from "../../../appliance/engine/stratum/equihash/job.ts";
import type {
  EqUpstream,
  UpstreamWork as EqWork,
} from "../../../appliance/engine/stratum/equihash/upstream.ts";
import { EthJob } from "../../../appliance/engine/stratum/ethereum/job.ts";
import type {
  EthUpstream,
  UpstreamWork as EthWork,
} from "../../../appliance/engine/stratum/ethereum/upstream.ts";
import { KawJob } from "../../../appliance/engine/stratum/kawpow/job.ts";
import type {
  KawUpstream,
  UpstreamWork as KawWork,
} from "../../../appliance/engine/stratum/kawpow/upstream.ts";

const own = { id: 1, target: "main", user: null, shared: false };
const read = (line: string): { id: unknown; method: unknown; params: unknown[] } => {
  expect(line.endsWith("}\n")).toBe(true);
  return JSON.parse(line);
};

const kaw = (over: Partial<KawWork> = {}): KawWork => ({
  poolJobId: "p1",
  header: "ab".repeat(32),
  seed: "cd".repeat(32),
  target: `00000000${"ff".repeat(28)}`,
  difficulty: 1,
  extranonce: "0a0b",
  clean: true,
  height: 3_100_000,
  bits: "1b0ffff0",
  ...over,
});

describe("notify lines", () => {
  test("KawPow: each session's job has its own id; the params follow the work, target and clean flag", () => {
    const upstream = {} as KawUpstream;
    const a = new KawJob(own, upstream, kaw());
    const b = new KawJob(own, upstream, kaw());
    const other = new KawJob(own, upstream, kaw({ target: `0000ffff${"ff".repeat(28)}` }));
    const w = kaw();
    for (const [job, clean] of [
      [a, true],
      [b, false],
      [other, true],
      [a, false],
      [b, true],
    ] as const) {
      const m = read(job.notifyLine(clean));
      expect(m.id).toBeNull();
      expect(m.method).toBe("mining.notify");
      expect(m.params).toEqual([job.jobId, w.header, w.seed, job.work.target, clean, w.height, w.bits]);
    }
    expect(a.jobId).not.toBe(b.jobId);
    // unknown JSON in the pool's fields passes through as it came
    const odd = new KawJob(own, upstream, kaw({ header: "ef".repeat(32), height: null, bits: { x: 'a"b' } }));
    expect(read(odd.notifyLine(false)).params.slice(5)).toEqual([null, { x: 'a"b' }]);
  });

  test("Equihash: the params of a job whose time changed are its own, not the previous job's", () => {
    const w: EqWork = {
      poolJobId: "e1",
      version: "04000000",
      prevHash: "11".repeat(32),
      merkleRoot: "22".repeat(32),
      reserved: "00".repeat(32),
      time: "5f5e1000",
      bits: "1d00ffff",
      difficulty: 1,
      extranonce: "0102",
      clean: false,
    } as EqWork;
    const upstream = {} as EqUpstream;
    const first = new EqJob(own, upstream, w);
    const later = new EqJob(own, upstream, { ...w, time: "5f5e1001" });
    for (const job of [first, later, first]) {
      const p = read(job.notifyLine(true)).params;
      expect(p).toEqual([
        job.jobId,
        w.version,
        w.prevHash,
        w.merkleRoot,
        w.reserved,
        job.work.time,
        w.bits,
        true,
      ]);
    }
  });

  test("EthereumStratum: [jobId, seed, header, clean]", () => {
    const w = { seed: "33".repeat(32), header: "44".repeat(32) } as EthWork;
    const job = new EthJob({ ...own }, {} as EthUpstream, w);
    const next = new EthJob({ ...own }, {} as EthUpstream, { ...w, header: "55".repeat(32) });
    expect(read(job.notifyLine(false)).params).toEqual([job.jobId, w.seed, w.header, false]);
    expect(read(next.notifyLine(true)).params).toEqual([next.jobId, w.seed, "55".repeat(32), true]);
    expect(read(next.notifyLine(false)).params).toEqual([next.jobId, w.seed, "55".repeat(32), false]);
  });
});
