/**
 * The Ethereum family in the family benchmarks: NiceHash EthereumStratum/1.0.0 miners (the dialect
 * whose nonce space the proxy splits in Pool mode) against the Ethereum test pool with `trustShares`.
 * A share is [user, jobId, minernonce]: the miner's counter, filling the nonce bytes its extranonce
 * prefix leaves, so every share is unique without hashing.
 */
import { TestEthPool } from "../../test/support/ethereum/test-pool.ts";
import type { MinerProtocol, ProtoMiner, WireMessage } from "./family-fleet.ts";
import type { FamilyKit } from "./family-kit.ts";

const params = (msg: WireMessage): unknown[] => (Array.isArray(msg.params) ? msg.params : []);

const es1: MinerProtocol = {
  hello: (m) =>
    `{"id":1,"method":"mining.subscribe","params":["bench/1.0","EthereumStratum/1.0.0"]}\n` +
    `{"id":2,"method":"mining.extranonce.subscribe","params":[]}\n` +
    `{"id":3,"method":"mining.authorize","params":["${m.user}","x"]}\n`,
  onMessage(m: ProtoMiner, msg: WireMessage): void {
    const p = params(msg);
    if (msg.id === 1 && Array.isArray(msg.result)) m.state.extranonce = String(msg.result[1]);
    else if (msg.method === "mining.set_extranonce") m.state.extranonce = String(p[0]);
    else if (msg.method === "mining.set_difficulty") {
      m.difficulty = Number(p[0]);
      m.nextShareAt = 0;
    } else if (msg.method === "mining.notify") {
      m.state.jobId = String(p[0]);
      m.ready = true;
    }
  },
  share(m: ProtoMiner, id: number): string {
    const digits = 16 - (m.state.extranonce ?? "").length;
    const nonce = m.counter.toString(16).padStart(digits, "0").slice(-digits);
    return `{"id":${id},"method":"mining.submit","params":["${m.user}","${m.state.jobId}","${nonce}"]}\n`;
  },
};

export const ETHEREUM_KIT: FamilyKit = {
  family: "ethereum",
  label: "Ethereum (EthereumStratum/1.0.0 miners)",
  currency: "ETC",
  category: "eth1hash",
  difficulty: 1,
  protocol: es1,
  startPool: async ({ difficulty, jobIntervalMs }) =>
    TestEthPool.start({ trustShares: true, difficulty, jobIntervalMs }),
};
