/**
 * The families the engine implements, by the catalogue's family name. A category whose family is
 * absent here is refused by the API and marked in the console (catalogue: modesOf), never served as
 * Bitcoin stratum. Adding a family: its folder, one line here, its modes in the catalogue.
 */
import { type FamilyName, familyOf, isCategory } from "../../catalog/categories.ts";
import { ALEPHIUM } from "./alephium/index.ts";
import { BITCOIN } from "./bitcoin/index.ts";
import { CRYPTONOTE } from "./cryptonote/index.ts";
import { EQUIHASH } from "./equihash/index.ts";
import { ETHEREUM } from "./ethereum/index.ts";
import type { Family } from "./family.ts";
import { KASPA } from "./kaspa/index.ts";
import { KAWPOW } from "./kawpow/index.ts";
import { PASSTHROUGH } from "./passthrough/index.ts";

export const IMPLEMENTED: Partial<Record<FamilyName, Family>> = {
  alephium: ALEPHIUM,
  bitcoin: BITCOIN,
  cryptonote: CRYPTONOTE,
  equihash: EQUIHASH,
  ethereum: ETHEREUM,
  kaspa: KASPA,
  kawpow: KAWPOW,
  passthrough: PASSTHROUGH,
};

export function familyFor(category: string): Family | null {
  return isCategory(category) ? (IMPLEMENTED[familyOf(category)] ?? null) : null;
}
