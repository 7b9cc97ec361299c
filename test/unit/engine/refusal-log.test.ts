import { describe, expect, test } from "bun:test";
import { REFUSAL_QUIET_MS, RefusalLog } from "../../../appliance/engine/transport/refusal-log.ts";

describe("a refused handshake is logged once per address and reason per hour", () => {
  test("repeats are quiet; another reason, another address, or an hour later are logged", () => {
    const lines: string[] = [];
    let now = 1_000_000;
    const log = new RefusalLog(
      "KENC",
      (m) => lines.push(m),
      () => now,
    );
    log.refused("10.0.0.1", "wrong key");
    log.refused("10.0.0.1", "wrong key");
    log.refused("10.0.0.1", "truncated frame");
    log.refused("10.0.0.2", "wrong key");
    now += REFUSAL_QUIET_MS - 1;
    log.refused("10.0.0.1", "wrong key");
    now += 1;
    log.refused("10.0.0.1", "wrong key");
    expect(lines).toEqual([
      "KENC 10.0.0.1: wrong key (logged once an hour per address and reason)",
      "KENC 10.0.0.1: truncated frame (logged once an hour per address and reason)",
      "KENC 10.0.0.2: wrong key (logged once an hour per address and reason)",
      "KENC 10.0.0.1: wrong key (logged once an hour per address and reason)",
    ]);
  });
});
