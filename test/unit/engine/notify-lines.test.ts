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
import type { LineWriter } from "../../../appliance/engine/transport/line-writer.ts";
import { writtenLine } from "../../support/stratum/written-line.ts";

const own = { id: 1, target: "main", user: null, shared: false };
const shared = { id: 2, target: "main", user: null, shared: true };

/** The notify a miner is sent for `job`, read as JSON. */
const sent = (job: { writeNotify(out: LineWriter, clean: boolean): void }, clean: boolean, before = "") =>
  JSON.parse(writtenLine((out) => job.writeNotify(out, clean), before)) as {
    id: unknown;
    method: unknown;
    params: unknown[];
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
    const onShared = new KawJob(shared, upstream, kaw());
    const w = kaw();
    for (const [job, clean, before] of [
      [a, true, ""],
      [b, false, ""],
      [other, true, ""],
      [onShared, true, ""],
      [a, false, '{"id":null,"method":"mining.set_target","params":["00"]}\n'],
      [onShared, false, ""],
      [onShared, true, ""],
      [b, true, ""],
    ] as const) {
      const m = sent(job, clean, before);
      expect(m.id).toBeNull();
      expect(m.method).toBe("mining.notify");
      expect(m.params).toEqual([job.jobId, w.header, w.seed, job.work.target, clean, w.height, w.bits]);
    }
    expect(a.jobId).not.toBe(b.jobId);
    // unknown JSON in the pool's fields passes through as it came
    const odd = new KawJob(own, upstream, kaw({ header: "ef".repeat(32), height: null, bits: { x: 'a"b' } }));
    expect(sent(odd, false).params.slice(5)).toEqual([null, { x: 'a"b' }]);
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
      const p = sent(job, true).params;
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

  test("ETHPROXY: pushed work (id 0) is each job's own work; eth_getWork is answered under its id", () => {
    const w = { seed: "33".repeat(32), header: "44".repeat(32), boundary: "00ff".repeat(16) } as EthWork;
    const jobs = [
      new EthJob({ ...own }, {} as EthUpstream, w),
      new EthJob({ ...own }, {} as EthUpstream, { ...w }),
      new EthJob({ ...own }, {} as EthUpstream, { ...w, header: "55".repeat(32) }),
      new EthJob({ ...shared }, {} as EthUpstream, { ...w, boundary: null }),
      new EthJob({ ...own }, {} as EthUpstream, w),
    ];
    for (const job of jobs) {
      const pushed = JSON.parse(job.workLine());
      expect(pushed.id).toBe(0);
      expect(pushed.result).toEqual([
        `0x${job.work.header}`,
        `0x${job.work.seed}`,
        `0x${job.work.boundary ?? "0".repeat(64)}`,
      ]);
      expect(JSON.parse(job.workLine(7))).toEqual({ ...pushed, id: 7 });
    }
  });

  test("EthereumStratum: [jobId, seed, header, clean]", () => {
    const w = { seed: "33".repeat(32), header: "44".repeat(32) } as EthWork;
    const job = new EthJob({ ...own }, {} as EthUpstream, w);
    const next = new EthJob({ ...own }, {} as EthUpstream, { ...w, header: "55".repeat(32) });
    expect(sent(job, false).params).toEqual([job.jobId, w.seed, w.header, false]);
    expect(sent(next, true).params).toEqual([next.jobId, w.seed, "55".repeat(32), true]);
    expect(sent(next, false).params).toEqual([next.jobId, w.seed, "55".repeat(32), false]);
  });
});
