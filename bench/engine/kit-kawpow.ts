/**
 * The KawPow family in the family benchmarks: RVN-pool-style miners (subscribe → [null, prefix],
 * mining.set_target, notify [jobId, header, seed, target, ...]) against the KawPow test pool with
 * `trustShares` (structure is still checked: job, header, prefix, a nonce new for the job). A share
 * is [user, jobId, 0x prefix ‖ counter, 0x header, 0x zero mix], unique without hashing.
 */
import { creditOfTarget } from "../../test/support/kawpow/chain.ts";
import { TestKawPool } from "../../test/support/kawpow/test-pool.ts";
import type { MinerProtocol, ProtoMiner, WireMessage } from "./family-fleet.ts";
import type { FamilyKit } from "./family-kit.ts";

const params = (msg: WireMessage): unknown[] => (Array.isArray(msg.params) ? msg.params : []);
const ZERO_MIX = "0".repeat(64);

const rvn: MinerProtocol = {
  hello: (m) =>
    `{"id":1,"method":"mining.subscribe","params":["bench/1.0"]}\n` +
    `{"id":2,"method":"mining.extranonce.subscribe","params":[]}\n` +
    `{"id":3,"method":"mining.authorize","params":["${m.user}","x"]}\n`,
  onMessage(m: ProtoMiner, msg: WireMessage): void {
    const p = params(msg);
    if (msg.id === 1 && Array.isArray(msg.result)) m.state.extranonce = String(msg.result[1] ?? "");
    else if (msg.method === "mining.set_extranonce") m.state.extranonce = String(p[0]);
    else if (msg.method === "mining.set_target") {
      const difficulty = creditOfTarget(BigInt(`0x${String(p[0])}`));
      if (difficulty !== m.difficulty) {
        m.difficulty = difficulty;
        m.nextShareAt = 0;
      }
    } else if (msg.method === "mining.notify") {
      m.state.jobId = String(p[0]);
      m.state.header = String(p[1]);
      m.ready = true;
    }
  },
  share(m: ProtoMiner, id: number): string {
    const prefix = m.state.extranonce ?? "";
    const digits = 16 - prefix.length;
    const nonce = prefix + m.counter.toString(16).padStart(digits, "0").slice(-digits);
    return `{"id":${id},"method":"mining.submit","params":["${m.user}","${m.state.jobId}","0x${nonce}","0x${m.state.header}","0x${ZERO_MIX}"]}\n`;
  },
};

export const KAWPOW_KIT: FamilyKit = {
  family: "kawpow",
  label: "KawPow (RVN-pool stratum miners)",
  currency: "RVN",
  category: "kawpow",
  difficulty: 1,
  protocol: rvn,
  startPool: async ({ difficulty, jobIntervalMs }) =>
    TestKawPool.start({ trustShares: true, difficulty, jobIntervalMs }),
};
