/**
 * Ethash truth from outside Pithead, for epoch 0 (seed hash = 32 zero bytes).
 *
 * 1. The PoW vectors of ethereum/tests, as shipped in ethereumjs-monorepo
 *    packages/ethash/test/ethash_tests.ts (commit 4f39d6fc1fba853d5a1c5907bcf2e20fa8b11d90): header hash,
 *    nonce and the exact mix digest and result, plus the keccak256 of the whole epoch-0 cache.
 * 2. The first three Ethereum mainnet blocks after genesis (mined 30 July 2015), as full header RLP quoted in
 *    the test fixtures of several public clients (e.g. silkworm, trin, a CKB Ethereum light client). They
 *    authenticate themselves: each RLP must hash to the well-known block hash, and each block's parentHash
 *    is the previous block's hash. The miner's mixHash in each header is what hashimoto must reproduce.
 */

export interface EthashTestVector {
  name: string;
  headerHash: string;
  nonce: string;
  mixHash: string;
  result: string;
}

export const EPOCH0_CACHE_HASH = "35ded12eecf2ce2e8da2e15c06d463aae9b84cb2530a00b932e4bbc484cde353";

export const ETHASH_TEST_VECTORS: EthashTestVector[] = [
  {
    name: "ethereum/tests PoW 'first'",
    headerHash: "2a8de2adf89af77358250bf908bf04ba94a6e8c3ba87775564a41d269a05e4ce",
    nonce: "4242424242424242",
    mixHash: "58f759ede17a706c93f13030328bcea40c1d1341fb26f2facd21ceb0dae57017",
    result: "dd47fd2d98db51078356852d7c4014e6a5d6c387c35f40e2875b74a256ed7906",
  },
  {
    name: "ethereum/tests PoW 'second'",
    headerHash: "100cbec5e5ef82991290d0d93d758f19082e71f234cf479192a8b94df6da6bfe",
    nonce: "307692cf71b12f6d",
    mixHash: "e55d02c555a7969361cf74a9ec6211d8c14e4517930a00442f171bdb1698d175",
    result: "ab9b13423cface72cbec8424221651bc2e384ef0f7a560e038fc68c8d8684829",
  },
];

export interface MainnetHeader {
  number: number;
  /** canonical block hash, as block explorers show it */
  blockHash: string;
  rlp: string;
}

/** Blocks 1–3 had no transactions or logs: their 256-byte bloom is all zero (RLP string of 0x100 bytes). */
const EMPTY_BLOOM = `b90100${"00".repeat(256)}`;
/** The trie root of an empty list, used for both transactions and receipts of blocks 1–3. */
const EMPTY_TRIE = "a056e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421";

export const MAINNET_HEADERS: MainnetHeader[] = [
  {
    number: 1,
    blockHash: "88e96d4537bea4d9c05d12549907b32561d3bf31f45aae734cdc119f13406cb6",
    rlp:
      "f90211a0d4e56740f876aef8c010b86a40d5f56745a118d0906a34e69aec8c0db1cb8fa3" +
      "a01dcc4de8dec75d7aab85b567b6ccd41ad312451b948a7413f0a142fd40d49347" +
      "9405a56e2d52c817161883f50c441c3228cfe54d9f" +
      "a0d67e4d450343046425ae4271474353857ab860dbc0a1dde64b41b5cd3a532bf3" +
      EMPTY_TRIE +
      EMPTY_TRIE +
      EMPTY_BLOOM +
      "8503ff80000001821388808455ba4224" +
      "99476574682f76312e302e302f6c696e75782f676f312e342e32" +
      "a0969b900de27b6ac6a67742365dd65f55a0526c41fd18e1b16f1a1215c2e66f59" +
      "88539bd4979fef1ec4",
  },
  {
    number: 2,
    blockHash: "b495a1d7e6663152ae92708da4843337b958146015a2802f4193a410044698c9",
    rlp:
      "f90218a088e96d4537bea4d9c05d12549907b32561d3bf31f45aae734cdc119f13406cb6" +
      "a01dcc4de8dec75d7aab85b567b6ccd41ad312451b948a7413f0a142fd40d49347" +
      "94dd2f1e6e498202e86d8f5442af596580a4f03c2c" +
      "a04943d941637411107494da9ec8bc04359d731bfd08b72b4d0edcbd4cd2ecb341" +
      EMPTY_TRIE +
      EMPTY_TRIE +
      EMPTY_BLOOM +
      "8503ff00100002821388808455ba4241" +
      "a0476574682f76312e302e302d30636463373634372f6c696e75782f676f312e34" +
      "a02f0790c5aa31ab94195e1f6443d645af5b75c46c04fbf9911711198a0ce8fdda" +
      "88b853fa261a86aa9e",
  },
  {
    number: 3,
    blockHash: "3d6122660cc824376f11ee842f83addc3525e2dd6756b9bcf0affa6aa88cf741",
    rlp:
      "f90218a0b495a1d7e6663152ae92708da4843337b958146015a2802f4193a410044698c9" +
      "a06b17b938c6e4ef18b26ad81b9ca3515f27fd9c4e82aac56a1fd8eab288785e41" +
      "945088d623ba0fcf0131e0897a91734a4d83596aa0" +
      "a076ab0b899e8387436ff2658e2988f83cbf1af1590b9fe9feca3714f8d1824940" +
      EMPTY_TRIE +
      EMPTY_TRIE +
      EMPTY_BLOOM +
      "8503fe802ffe03821388808455ba4260" +
      "a0476574682f76312e302e302d66633739643332642f6c696e75782f676f312e34" +
      "a065e12eec23fe6555e6bcdb47aa25269ae106e5f16b54e1e92dcee25e1c8ad037" +
      "882e9344e0cbde83ce",
  },
];
