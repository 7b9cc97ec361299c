import { describe, expect, test } from "bun:test";
import { ConnectMode, ListenProtocol } from "../../appliance/domain/port.ts";
import { feeWallet, makeEngine, makePort } from "../support/stratum/port-fixture.ts";

describe("a stored port asking for a transport the engine does not implement", () => {
  const cases = [
    [
      "an RMS listener on the forwarding coin (it has no streams to carry)",
      { protocol: ListenProtocol.RMS3, category: "nginx", currency: "NGINX" },
      {},
      "the RMS tunnel on a forwarding port is not implemented",
    ],
    [
      "KENC over TCP (KENC is SSL with et_mode 1)",
      { protocol: ListenProtocol.TCP },
      { et_mode: 1 },
      "KENC over a protocol other than SSL is not implemented",
    ],
    [
      "SOCKS5 over SSL",
      { protocol: ListenProtocol.SSL },
      { et_mode: 2 },
      "SOCKS5 over a protocol other than TCP is not implemented",
    ],
    [
      "an RMS2 target on the forwarding coin",
      { connect_mode: ConnectMode.RMS2, category: "nginx", currency: "NGINX" },
      {},
      "an RMS2/RMS3 target on a forwarding port is not implemented",
    ],
    [
      "an RMS3 fee pool on a Kaspa port (outside the Bitcoin and Equihash families)",
      {
        category: "kheavyhash",
        currency: "KAS",
        wallets: [feeWallet(1, "f", "127.0.0.1:2", 0.02)].map((w) => ({
          ...w,
          pool_protocol: ConnectMode.RMS3,
        })),
      },
      {},
      "an RMS2/RMS3 fee pool outside the Bitcoin and Equihash families is not implemented",
    ],
  ] as const;
  for (const [name, over, setting, message] of cases)
    test(`${name} is not started (never served as plain TCP or SSL)`, async () => {
      const t = makeEngine();
      const port = makePort({ pool_address: "127.0.0.1:1", ...over, setting });
      await expect(t.engine.apply(port)).rejects.toThrow(message);
      expect(t.engine.running(port.id)).toBeUndefined();
      expect(t.logs).toContain(`error ${port.id} not started: ${message}`);
      await t.engine.shutdown();
    });
});
