/**
 * Vectors from rusty-kaspa (kaspanet/rusty-kaspa, consensus/pow/src/matrix.rs and
 * crypto/hashes/src/pow_hashers.rs), values only:
 * - generateMatrix: the matrix drawn from the hash [42; 32];
 * - heavyHash: a given matrix, an input hash and the expected result;
 * - the Keccak states of cSHAKE256("ProofOfWorkHash") and cSHAKE256("HeavyHash") after their
 *   prefixes, with the padding already applied, as kaspad precomputes them for a one-block input.
 * And from Pyrin (Pyrinpyi/pyrin, crypto/hashes/src/pow_hashers.rs and consensus/pow/src/matrix.rs,
 * values only): its BLAKE3 PoW hash of a given input, and the heavy-hash step of rusty-kaspa's test
 * matrix and input above with BLAKE3 as the final hash.
 */
import vectors from "./rusty-kaspa-vectors.json" with { type: "json" };

export const GENERATE_MATRIX: { seedByte: number; matrix: number[][] } = vectors.generateMatrix;
export const HEAVY_HASH: { matrix: number[][]; input: number[]; expected: number[] } = vectors.heavyHash;

export const POW_HASH_INITIAL_STATE: readonly bigint[] = [
  1242148031264380989n,
  3008272977830772284n,
  2188519011337848018n,
  1992179434288343456n,
  8876506674959887717n,
  5399642050693751366n,
  1745875063082670864n,
  8605242046444978844n,
  17936695144567157056n,
  3343109343542796272n,
  1123092876221303306n,
  4963925045340115282n,
  17037383077651887893n,
  16629644495023626889n,
  12833675776649114147n,
  3784524041015224902n,
  1082795874807940378n,
  13952716920571277634n,
  13411128033953605860n,
  15060696040649351053n,
  9928834659948351306n,
  5237849264682708699n,
  12825353012139217522n,
  6706187291358897596n,
  196324915476054915n,
];

export const HEAVY_HASH_INITIAL_STATE: readonly bigint[] = [
  4239941492252378377n,
  8746723911537738262n,
  8796936657246353646n,
  1272090201925444760n,
  16654558671554924250n,
  8270816933120786537n,
  13907396207649043898n,
  6782861118970774626n,
  9239690602118867528n,
  11582319943599406348n,
  17596056728278508070n,
  15212962468105129023n,
  7812475424661425213n,
  3370482334374859748n,
  5690099369266491460n,
  8596393687355028144n,
  570094237299545110n,
  9119540418498120711n,
  16901969272480492857n,
  13372017233735502424n,
  14372891883993151831n,
  5171152063242093102n,
  10573107899694386186n,
  6096431547456407061n,
  1592359455985097269n,
];

/** Pyrin's PoW hash: prePowHash [42; 32], this timestamp and nonce, and BLAKE3's 32 bytes. */
export const PYRIN_POW_HASH = {
  prePowByte: 42,
  timestamp: 1715521488610n,
  nonce: 11171827086635415026n,
  expected: "e369d9a9ab793622e8fc83b6bcb540f553510c8adf5b9b9964982e8348117626",
};

/** Pyrin's heavy-hash step of HEAVY_HASH's matrix and input (its rule before the relaunch). */
export const PYRIN_HEAVY_HASH_EXPECTED = "b3687d5b06a17d2e5a8c7ff11072b5a6142eea912c7691ccf3b3b26a0f99e947";
