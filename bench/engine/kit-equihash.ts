/**
 * The Equihash family in the family benchmarks: ZIP 301 miners (subscribe → [null, NONCE_1],
 * mining.set_target, notify [jobId, version, prevhash, merkleroot, reserved, time, bits, clean])
 * on a ZEC port, against the Equihash test pool with `trustShares` (no solving; job, time, NONCE_2
 * length and duplicates still checked). A share is [user, jobId, time, NONCE_2 = counter, a 200,9
 * solution of zeros with its compactSize prefix]: Zcash's 1,344 bytes, so each submit line is as
 * long as a real miner's (about 2.8 KB), which the engine checks by length.
 *
 * A Pool-mode session carries 256 miners' shares: 187 such shares queued in one event-loop turn
 * pass the line writer's 512 KB bound (transport/line-writer.ts) and the proxy closes that pool
 * session, so the memory scenario submits its shares 50 miners at a time.
 */
import { creditOfTarget } from "../../test/support/equihash/chain.ts";
import { TestEqPool } from "../../test/support/equihash/test-pool.ts";
import type { MinerProtocol, ProtoMiner, WireMessage } from "./family-fleet.ts";
import type { FamilyKit } from "./family-kit.ts";

const params = (msg: WireMessage): unknown[] => (Array.isArray(msg.params) ? msg.params : []);
/** compactSize 0xfd, then 1344 little-endian, then the solution */
const SOLUTION = `fd4005${"00".repeat(1344)}`;
const NONCE_DIGITS = 64;

const zip301: MinerProtocol = {
  hello: (m) =>
    `{"id":1,"method":"mining.subscribe","params":["bench/1.0",null,"127.0.0.1","0"]}\n` +
    `{"id":2,"method":"mining.extranonce.subscribe","params":[]}\n` +
    `{"id":3,"method":"mining.authorize","params":["${m.user}","x"]}\n`,
  onMessage(m: ProtoMiner, msg: WireMessage): void {
    const p = params(msg);
    if (msg.id === 1 && Array.isArray(msg.result)) m.state.nonce1 = String(msg.result[1] ?? "");
    else if (msg.method === "mining.set_extranonce") m.state.nonce1 = String(p[0]);
    else if (msg.method === "mining.set_target") {
      const difficulty = creditOfTarget(BigInt(`0x${String(p[0])}`));
      if (difficulty !== m.difficulty) {
        m.difficulty = difficulty;
        m.nextShareAt = 0;
      }
    } else if (msg.method === "mining.notify") {
      m.state.jobId = String(p[0]);
      m.state.time = String(p[5]);
      m.ready = true;
    }
  },
  share(m: ProtoMiner, id: number): string {
    // the miner's index in front, as real miners draw NONCE_2 at random: the test pool's duplicate
    // check keys on NONCE_2 without NONCE_1, so equal counters on two sessions would collide
    const digits = NONCE_DIGITS - (m.state.nonce1 ?? "").length;
    const nonce2 = m.index.toString(16).padStart(6, "0") + m.counter.toString(16).padStart(digits - 6, "0");
    return `{"id":${id},"method":"mining.submit","params":["${m.user}","${m.state.jobId}","${m.state.time}","${nonce2}","${SOLUTION}"]}\n`;
  },
};

export const EQUIHASH_KIT: FamilyKit = {
  family: "equihash",
  label: "Equihash (ZIP 301 miners, ZEC solutions)",
  currency: "ZEC",
  category: "equihash",
  difficulty: 1,
  protocol: zip301,
  startPool: async ({ difficulty, jobIntervalMs }) =>
    TestEqPool.start({ trustShares: true, difficulty, jobIntervalMs }),
};
