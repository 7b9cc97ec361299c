import { afterAll, describe, expect, test } from "bun:test";
import { pingUpstream } from "../../appliance/engine/ping.ts";
import { CryptoNoteTestPool } from "../support/cryptonote/test-pool.ts";

const pools: CryptoNoteTestPool[] = [];
afterAll(() => {
  for (const p of pools) p.stop();
});

describe("the connection test logs in the way the coin's protocol does", () => {
  test("a CryptoNote pool answers a RandomX coin's test, and not Bitcoin's subscribe", async () => {
    // the pool only checks shares, never at login, so it need not hash here
    const pool = await CryptoNoteTestPool.start({ trustShares: true });
    pools.push(pool);
    const address = `127.0.0.1:${pool.port}`;
    expect(await pingUpstream(address, 0, 2000, "randomx")).toBeGreaterThanOrEqual(0);
    expect(pool.logins.length).toBe(1);
    await expect(pingUpstream(address, 0, 1000)).rejects.toThrow();
  });

  test("a category without a family cannot be tested", async () => {
    // every catalogue category has a family now; a category the catalogue does not know has none
    await expect(pingUpstream("127.0.0.1:1", 0, 1000, "retiredhash")).rejects.toThrow(
      "the retiredhash protocol family is not implemented",
    );
  });
});
