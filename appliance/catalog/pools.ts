/**
 * Built-in public pools per coin (spec §3 "Presets": brand = coin, content = display name, url = host:port
 * without scheme, protocol 0 TCP / 1 SSL), served read-only by GET /api/pool/info/1 and offered by the
 * preset-pool picker. Only large, long-running public pools, on their documented stratum endpoints;
 * operators add their own as custom pools. Pools move endpoints now and then: this list is data and is
 * meant to be refreshed by hot update, not trusted forever.
 */
import { coinOrder } from "./currencies.ts";

export interface BuiltinPool {
  brand: string;
  content: string;
  url: string;
  protocol: 0 | 1;
}

type Entry = readonly [content: string, url: string, protocol?: 0 | 1];

const POOLS: Readonly<Record<string, readonly Entry[]>> = {
  BTC: [
    ["ViaBTC", "btc.viabtc.io:3333"],
    ["F2Pool", "btc.f2pool.com:1314"],
    ["AntPool", "ss.antpool.com:3333"],
    ["Braiins Pool", "stratum.braiins.com:3333"],
    ["Binance Pool", "btc.poolbinance.com:1800"],
    ["SpiderPool", "btc.spiderpool.com:2309"],
    ["Luxor", "btc.global.luxor.tech:700"],
    ["OCEAN", "mine.ocean.xyz:3334"],
    ["CKPool Solo", "solo.ckpool.org:3333"],
  ],
  LTC: [
    ["ViaBTC", "ltc.viabtc.io:3333"],
    ["F2Pool", "ltc.f2pool.com:8888"],
    ["AntPool", "stratum-ltc.antpool.com:8888"],
    ["Litecoinpool.org", "us.litecoinpool.org:3333"],
  ],
  BCH: [
    ["ViaBTC", "bch.viabtc.io:3333"],
    ["F2Pool", "bch.f2pool.com:1314"],
    ["2Miners Solo", "solo-bch.2miners.com:9090"],
  ],
  KAS: [
    ["2Miners", "kas.2miners.com:2020"],
    ["HeroMiners", "kaspa.herominers.com:1206"],
    ["WoolyPooly", "pool.woolypooly.com:3112"],
  ],
  "KAS(ks3)": [
    ["2Miners", "kas.2miners.com:2020"],
    ["HeroMiners", "kaspa.herominers.com:1206"],
  ],
  KASPA: [
    ["2Miners", "kas.2miners.com:2020"],
    ["HeroMiners", "kaspa.herominers.com:1206"],
    ["WoolyPooly", "pool.woolypooly.com:3112"],
  ],
  ETC: [
    ["2Miners", "etc.2miners.com:1010"],
    ["F2Pool", "etc.f2pool.com:8118"],
  ],
  RVN: [
    ["2Miners", "rvn.2miners.com:6060"],
    ["Ravenminer", "stratum.ravenminer.com:3838"],
  ],
  ERG: [
    ["2Miners", "erg.2miners.com:8888"],
    ["HeroMiners", "ergo.herominers.com:1180"],
  ],
  XMR: [
    ["SupportXMR", "pool.supportxmr.com:3333"],
    ["SupportXMR (SSL)", "pool.supportxmr.com:443", 1],
    ["HeroMiners", "monero.herominers.com:1111"],
    ["2Miners", "xmr.2miners.com:2222"],
    ["MoneroOcean", "gulf.moneroocean.stream:10128"],
  ],
  ZEC: [
    ["F2Pool", "zec.f2pool.com:3357"],
    ["Flypool", "eu1-zcash.flypool.org:3333"],
    ["Flypool (SSL)", "eu1-zcash.flypool.org:3443", 1],
  ],
  DASH: [["F2Pool", "dash.f2pool.com:5588"]],
  CKB: [
    ["F2Pool", "ckb.f2pool.com:4300"],
    ["2Miners", "ckb.2miners.com:6464"],
  ],
  ALPH: [["HeroMiners", "alephium.herominers.com:1199"]],
  DNX: [["HeroMiners", "dynex.herominers.com:1120"]],
  BTG: [["2Miners", "btg.2miners.com:4040"]],
  FLUX: [["2Miners", "flux.2miners.com:9090"]],
  CFX: [["F2Pool", "cfx.f2pool.com:6800"]],
};

/** Body of GET /api/pool/info/1: every built-in pool, grouped in the coin display order. */
export function builtinPools(): BuiltinPool[] {
  return Object.entries(POOLS)
    .sort(([a], [b]) => coinOrder(a) - coinOrder(b))
    .flatMap(([brand, entries]) =>
      entries.map(([content, url, protocol]) => ({ brand, content, url, protocol: protocol ?? 0 })),
    );
}

/** Built-in pools of one coin (the preset dialog filters by the selected coin). */
export function builtinPoolsFor(coin: string): BuiltinPool[] {
  return builtinPools().filter((p) => p.brand === coin);
}
