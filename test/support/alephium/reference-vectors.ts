/**
 * A real Alephium block template and nonces from the official pool's test suite
 * (alephium/mining-pool test/jobManagerTest.js, a mainnet-era header of December 2021): the pool
 * accepts `validNonce` as a block of chain 1 → 2 meeting `targetBlob`, refuses `wrongChainNonce` as
 * "invalid block chain index", and refuses `lowDifficultyNonce` (right chain) as below difficulty 2
 * with its test's diff-1 target 2^228 − 1.
 */
export const ALEPHIUM_TEMPLATE = {
  fromGroup: 1,
  toGroup: 2,
  headerBlob:
    "0007790e4ec67704f105b406379c6640a1edd9f4f55d07628fd555d72da436dccd50000000003309007511dbb1976d272fdaec0a5ead079da6e422c3c16faa593a3abddd3b822d4602064477d36478ce5a7370e0220e5daadfd9c4984f140a41537f000000005276b90956fa5c3d5b5cdb4235de493e239bd12523266099f0ae9834fd481a7288ec588c73287d61dc9b7ed326e1bc8980bffa383698fe780c1d00153b2890a5ea1c798f8e552c79e44d31fe1d02e2fbef8763369a774502229dd01600000000f07f98e3ec9b7d634293748bac9720310d681dd5a3e87f2f330d61d7c2f0ce1adccebc35c08b472d5d7f1a008009c8291382b839aa8493b57e58cbb400b9146184a084990fe481afb4fea6f0cdd5b372bce59d6be4b7c3b1a1ac72260000017ddbd15f591cffffff",
  targetBlob: "00ffffff00000000000000000000000000000000000000000000000000000000",
  validNonce: "f8c8741232a4ebb0aad38ffb8e829b9bf5b00770f1ac31dc",
  wrongChainNonce: "b6414be3a40e1a2852b3171e4462846ea48c777104b03e5e",
  lowDifficultyNonce: "301d0b1f7e61e1d532d37df520f1acc92cfccc48de323e1c",
  /** the diff-1 target of that test (2^228 − 1) and the difficulty the low nonce misses */
  testDiff1Target: 2n ** 228n - 1n,
  lowDifficulty: 2,
} as const;
