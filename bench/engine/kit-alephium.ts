/**
 * The Alephium family in the family benchmarks: miners speaking the reference pool's stratum
 * (mining.set_difficulty, mining.set_extranonce, mining.notify with a list of templates on several
 * chains) against the Alephium test pool with `trustShares` (no blake3; job, chain index, worker,
 * nonce form, prefix and duplicates are still checked). A share names the first template of the
 * latest notify and a 24-byte nonce of the miner's prefix ‖ counter, unique without hashing.
 */
import { TestAlphPool } from "../../test/support/alephium/test-pool.ts";
import type { MinerProtocol, ProtoMiner, WireMessage } from "./family-fleet.ts";
import type { FamilyKit } from "./family-kit.ts";

const params = (msg: WireMessage): unknown[] => (Array.isArray(msg.params) ? msg.params : []);
const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null;
const NONCE_DIGITS = 48;

const alph: MinerProtocol = {
  hello: (m) =>
    `{"id":1,"method":"mining.subscribe","params":["bench/1.0"]}\n` +
    `{"id":2,"method":"mining.authorize","params":["${m.user}","x"]}\n`,
  onMessage(m: ProtoMiner, msg: WireMessage): void {
    const p = params(msg);
    if (msg.method === "mining.set_extranonce") m.state.extranonce = String(p[0]);
    else if (msg.method === "mining.set_difficulty") {
      m.difficulty = Number(p[0]);
      m.nextShareAt = 0;
    } else if (msg.method === "mining.notify" && isObj(p[0])) {
      m.state.jobId = String(p[0].jobId);
      m.state.fromGroup = String(p[0].fromGroup);
      m.state.toGroup = String(p[0].toGroup);
      m.ready = true;
    }
  },
  share(m: ProtoMiner, id: number): string {
    const prefix = m.state.extranonce ?? "";
    const digits = NONCE_DIGITS - prefix.length;
    const nonce = prefix + m.counter.toString(16).padStart(digits, "0");
    return `{"id":${id},"method":"mining.submit","params":{"jobId":"${m.state.jobId}","fromGroup":${m.state.fromGroup},"toGroup":${m.state.toGroup},"nonce":"${nonce}","worker":"${m.user}"}}\n`;
  },
};

export const ALEPHIUM_KIT: FamilyKit = {
  family: "alephium",
  label: "Alephium (reference-pool stratum miners)",
  currency: "ALPH",
  category: "blake3",
  difficulty: 1,
  protocol: alph,
  startPool: async ({ difficulty, jobIntervalMs }) =>
    TestAlphPool.start({ trustShares: true, difficulty, jobIntervalMs }),
};
