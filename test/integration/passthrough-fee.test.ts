/**
 * Coins relayed as is (the pass-through family): the API says fee diversion is not available for
 * them (`fee_supported: false` in the currency config and on the port) and refuses every way of
 * giving such a port a fee wallet with a ratio; options no engine family implements are refused.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { freePort, portBody, startTestAppliance, type TestAppliance } from "../support/appliance.ts";

let t: TestAppliance;
beforeAll(async () => {
  t = await startTestAppliance();
});
afterAll(() => t.close());

type ErrorBody = { error: { key: string; field?: string } };
type Item = { wallets: { id: number }[]; fee_supported: boolean };

const feeRow = (ratio: number) => ({
  addr: "9fFeeWallet",
  device: "fee1",
  pool_address: "127.0.0.1:1",
  pool_protocol: 0,
  ratio,
});
const create = (over: Record<string, unknown>) =>
  t.client.post<{ id: number } & Partial<ErrorBody>>(
    "/api/port/new",
    portBody({ port: freePort(), ...over }),
  );

describe("fee on a pass-through coin", () => {
  test("the currency config and the port say fee_supported: false; Bitcoin coins say true", async () => {
    const { config } = (
      await t.client.get<{ config: Record<string, { fee_supported: boolean; modes: number[] }> }>(
        "/api/currency/config",
      )
    ).body;
    for (const coin of ["ERG", "ALEO", "DNX", "CFX", "CKB", "SC", "HNS", "NEXA", "GRIN"]) {
      expect({ coin, fee: config[coin]?.fee_supported, modes: config[coin]?.modes }).toEqual({
        coin,
        fee: false,
        modes: [0],
      });
    }
    expect(config.BTC?.fee_supported).toBe(true);
    const erg = await create({ currency: "ERG", wallets: [feeRow(0)] });
    expect(erg.status).toBe(200);
    expect((await t.client.get<Item>(`/api/port/${erg.body.id}`)).body.fee_supported).toBe(false);
    const btc = await create({});
    expect((await t.client.get<Item>(`/api/port/${btc.body.id}`)).body.fee_supported).toBe(true);
    const list = (await t.client.get<{ items: (Item & { server: { id: number } })[] }>("/api/ports")).body;
    expect(list.items.find((i) => i.server.id === erg.body.id)?.fee_supported).toBe(false);
  });

  test("a fee wallet with a ratio is refused on create, edit, the hot wallet calls and /api/wallet/new", async () => {
    const refused = await create({ currency: "ALEO", wallets: [feeRow(0.02)] });
    expect({
      status: refused.status,
      key: refused.body.error?.key,
      field: refused.body.error?.field,
    }).toEqual({
      status: 400,
      key: "lang.wallet.err_fee_unsupported",
      field: "wallets",
    });
    const ok = await create({ currency: "ALEO", wallets: [feeRow(0)] });
    expect(ok.status).toBe(200);
    const id = ok.body.id;
    const edit = await t.client.post<ErrorBody>(
      `/api/port/${id}`,
      portBody({ port: freePort(), currency: "ALEO", wallets: [feeRow(0.05)] }),
    );
    expect(edit.body.error.key).toBe("lang.wallet.err_fee_unsupported");
    const added = await t.client.post<ErrorBody>("/api/wallet/new", { server_id: id, ...feeRow(0) });
    expect(added.body.error.key).toBe("lang.wallet.err_fee_unsupported");
    const row = (await t.client.get<Item>(`/api/port/${id}`)).body.wallets[0]?.id;
    const raised = await t.client.post<ErrorBody>(`/api/wallet/${row}`, feeRow(0.01));
    expect(raised.body.error.key).toBe("lang.wallet.err_fee_unsupported");
    const hot = await t.client.post<ErrorBody>(`/api/port/${id}/wallets`, { wallets: [feeRow(0.01)] });
    expect(hot.body.error.key).toBe("lang.wallet.err_fee_unsupported");
  });

  test("OKMiner optimisation and the Mallob port are refused with their own messages", async () => {
    const okminer = await create({ currency: "ERG", wallets: [feeRow(0)], setting: { pu_mode: 1 } });
    expect([okminer.body.error?.key, okminer.body.error?.field]).toEqual([
      "lang.proxy.err_okminer",
      "setting.pu_mode",
    ]);
    const mallob = await create({ currency: "DNX", wallets: [feeRow(0)], setting: { pth: 8081 } });
    expect([mallob.body.error?.key, mallob.body.error?.field]).toEqual([
      "lang.proxy.err_mallob_relay",
      "setting.pth",
    ]);
  });
});
