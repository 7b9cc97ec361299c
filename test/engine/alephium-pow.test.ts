/**
 * The test pool's Alephium PoW pinned to a real block template from the official pool's tests
 * (test/support/alephium/reference-vectors.ts), and the proxy's message parsers without sockets.
 */
import { describe, expect, test } from "bun:test";
import { hashFactorOf } from "../../appliance/catalog/categories.ts";
import { AlphErrorCode } from "../../appliance/engine/stratum/alephium/errors.ts";
import { AlphJob } from "../../appliance/engine/stratum/alephium/job.ts";
import {
  parseNotify,
  parseSetExtranonce,
  parseSubmit,
} from "../../appliance/engine/stratum/alephium/messages.ts";
import type { AlphUpstream } from "../../appliance/engine/stratum/alephium/upstream.ts";
import { chainOf, HASHES_PER_DIFFICULTY, hashValue, hexBytes, powHash } from "../support/alephium/pow.ts";
import { ALEPHIUM_TEMPLATE as T } from "../support/alephium/reference-vectors.ts";

const hashOf = (nonce: string) => powHash(hexBytes(nonce), hexBytes(T.headerBlob));

describe("Alephium PoW against the official pool's test vectors", () => {
  test("the valid nonce is a block of chain 1 → 2 meeting the template's target", () => {
    const h = hashOf(T.validNonce);
    expect(chainOf(h)).toEqual({ fromGroup: T.fromGroup, toGroup: T.toGroup });
    expect(hashValue(h) <= BigInt(`0x${T.targetBlob}`)).toBe(true);
  });

  test("the wrong-chain nonce lands on another chain; the low-difficulty one on the right chain, below difficulty 2", () => {
    const wrong = chainOf(hashOf(T.wrongChainNonce));
    expect(wrong).not.toEqual({ fromGroup: T.fromGroup, toGroup: T.toGroup });
    const low = hashOf(T.lowDifficultyNonce);
    expect(chainOf(low)).toEqual({ fromGroup: T.fromGroup, toGroup: T.toGroup });
    expect(hashValue(low) > T.testDiff1Target / BigInt(T.lowDifficulty)).toBe(true);
  });

  test("work per difficulty is the catalogue's 2^34: 2^30 for the diff-1 target, 16 chains", () => {
    expect(hashFactorOf("blake3")).toBe(HASHES_PER_DIFFICULTY);
  });
});

describe("Alephium message parsers", () => {
  const submit = { jobId: "1a", fromGroup: 1, toGroup: 2, nonce: T.validNonce, worker: "w" };

  test("a submit is an object with a 24-byte hex nonce and a chain index of groups 0–3", () => {
    expect(parseSubmit(submit)).toEqual({ jobId: "1a", fromGroup: 1, toGroup: 2, nonce: T.validNonce });
    for (const nonce of ["zz".repeat(24), "00".repeat(23), "00".repeat(25), 5])
      expect(parseSubmit({ ...submit, nonce })).toMatchObject({ code: AlphErrorCode.INVALID_NONCE });
    expect(parseSubmit({ ...submit, toGroup: 4 })).toMatchObject({ message: "invalid params: chain index" });
    expect(parseSubmit(["1a", T.validNonce])).toMatchObject({ code: AlphErrorCode.OTHER });
  });

  test("a notify is a list of job objects, each with its chain; anything else is refused", () => {
    const job = {
      jobId: "7",
      fromGroup: 3,
      toGroup: 0,
      headerBlob: "00ff",
      txsBlob: "",
      targetBlob: "ff",
      height: 9,
    };
    const parsed = parseNotify([job]);
    expect(parsed?.map((p) => [p.poolJobId, p.fromGroup, p.toGroup])).toEqual([["7", 3, 0]]);
    expect(parseNotify([{ ...job, fromGroup: 7 }])).toBeNull();
    expect(parseNotify(["7", "00ff"])).toBeNull();
    expect(parseNotify({ job })).toBeNull();
  });

  test("a miner's notify carries each template under a port-unique id, every other field as the pool sent it", () => {
    const unknown = { note: 'a "quoted" \\ text', list: [1, null, { deep: true }] };
    const first = {
      jobId: "pool-1",
      fromGroup: 0,
      toGroup: 3,
      headerBlob: "00ff",
      txsBlob: "",
      targetBlob: "ff",
      height: 9,
      ...unknown,
    };
    const second = { ...first, jobId: "pool-2", fromGroup: 2, toGroup: 1, headerBlob: "abcd" };
    const templates = parseNotify([first, second]);
    if (templates === null) throw new Error("notify refused");
    const origin = { id: 1, target: "main", shared: false };
    const job = new AlphJob(origin, {} as AlphUpstream, templates, 1, "");
    const other = new AlphJob(origin, {} as AlphUpstream, templates, 1, "");
    const line = job.notifyLine();
    expect(line.endsWith("}\n")).toBe(true);
    const sent = JSON.parse(line);
    expect(sent.id).toBeNull();
    expect(sent.method).toBe("mining.notify");
    const [a, b] = sent.params;
    expect(a).toEqual({ ...first, jobId: a.jobId });
    expect(b).toEqual({ ...second, jobId: b.jobId });
    const ids = [a.jobId, b.jobId, ...other.ids];
    expect(new Set(ids).size).toBe(4);
    expect(ids).not.toContain("pool-1");
    expect(job.template(a.jobId)?.poolJobId).toBe("pool-1");
    expect(job.template(b.jobId)?.poolJobId).toBe("pool-2");
    expect(job.template(other.ids[0] as string)).toBeUndefined();
  });

  test("set_extranonce takes even-length hex shorter than the nonce", () => {
    expect(parseSetExtranonce(["A1b2"])).toBe("a1b2");
    expect(parseSetExtranonce(["abc"])).toBeNull();
    expect(parseSetExtranonce(["00".repeat(24)])).toBeNull();
  });
});
