/**
 * The pass-through family in the family benchmarks: miners speaking Ergo's stratum (subscribe,
 * authorize, set_difficulty, notify, submit [user, job, nonce2]) through the relay to the line-level
 * test pool, which judges shares by structure (known job, nonce seen once) and keeps no copy of the
 * lines. The relay has no fee, so only memory and the added round trip are measured.
 */
import { LinePool } from "../../test/support/passthrough/line-pool.ts";
import type { MinerProtocol, ProtoMiner, WireMessage } from "./family-fleet.ts";
import type { FamilyKit } from "./family-kit.ts";

const ergo: MinerProtocol = {
  hello: (m) =>
    `{"id":1,"method":"mining.subscribe","params":["bench/1.0"]}\n` +
    `{"id":2,"method":"mining.authorize","params":["${m.user}","x"]}\n`,
  onMessage(m: ProtoMiner, msg: WireMessage): void {
    const p = Array.isArray(msg.params) ? msg.params : [];
    if (msg.method === "mining.set_difficulty") {
      m.difficulty = Number(p[0]);
      m.nextShareAt = 0;
    } else if (msg.method === "mining.notify") {
      m.state.jobId = String(p[0]);
      m.ready = true;
    }
  },
  // the miner's user and counter make every nonce unique at the pool without hashing
  share: (m, id) =>
    `{"id":${id},"method":"mining.submit","params":["${m.user}","${m.state.jobId}","${m.user}-${m.counter.toString(16)}"]}\n`,
};

export const PASSTHROUGH_KIT: FamilyKit = {
  family: "passthrough",
  label: "Pass-through (Ergo-stratum miners relayed line by line)",
  currency: "ERG",
  category: "autoykos2",
  difficulty: 1,
  protocol: ergo,
  startPool: async ({ difficulty, jobIntervalMs }) =>
    new LinePool("ergo", { difficulty, jobIntervalMs, keepLines: false }).start(),
};
