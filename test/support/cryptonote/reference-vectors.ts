/**
 * Reference vectors from outside this repository, each with its source, so that a broken binding or
 * blob derivation fails a test instead of agreeing with itself. Nothing here was computed by Pithead.
 */

/**
 * tevador/RandomX v1.1.10 (the version Debian packages as librandomx0), src/tests/tests.cpp, hash
 * tests 1a–1e: key and input as the test passes them (strings as their bytes, 1e's input as hex).
 */
export const RANDOMX_TEST_VECTORS: readonly {
  name: string;
  key: string;
  input: string | { hex: string };
  hash: string;
}[] = [
  {
    name: "1a",
    key: "test key 000",
    input: "This is a test",
    hash: "639183aae1bf4c9a35884cb46b09cad9175f04efd7684e7262a0ac1c2f0b4e3f",
  },
  {
    name: "1b",
    key: "test key 000",
    input: "Lorem ipsum dolor sit amet",
    hash: "300a0adb47603dedb42228ccb2b211104f4da45af709cd7547cd049e9489c969",
  },
  {
    name: "1c",
    key: "test key 000",
    input: "sed do eiusmod tempor incididunt ut labore et dolore magna aliqua",
    hash: "c36d4ed4191e617309867ed66a443be4075014e2b061bcdaf9ce7b721d2b77a8",
  },
  {
    name: "1d",
    key: "test key 001",
    input: "sed do eiusmod tempor incididunt ut labore et dolore magna aliqua",
    hash: "e9ff4503201c0c2cca26d285c93ae883f9b1d30c9eb240b820756f2d5a7905fc",
  },
  {
    name: "1e (a Monero-shaped 76-byte hashing blob)",
    key: "test key 001",
    input: {
      hex: "0b0b98bea7e805e0010a2126d287a2a0cc833d312cb786385a7c2f9de69d25537f584a9bc9977b00000000666fd8753bf61a8631f12984e3fd44f4014eca629276817b56f32e9b68bd82f416",
    },
    hash: "c56414121acda1713c2f2a819d8ae38aed7c80c35c2a769298d34f03833cd5f1",
  },
];

/**
 * monerod's get_block_template example (mainnet height 3195018) from Monero's RPC documentation, as
 * kept in Cuprate/cuprate test-utils/src/rpc/data/json.rs: the template and the hashing blob monerod
 * derived from it.
 */
export const MONEROD_BLOCK_TEMPLATE = {
  height: 3195018,
  blocktemplateBlob:
    "1010f4bae0b4069d648e741d85ca0e7acb4501f051b27e9b107d3cd7a3f03aa7f776089117c81a0000000002c681c30101ff8a81c3010180e0a596bb11033b7eedf47baf878f3490cb20b696079c34bd017fe59b0d070e74d73ffabc4bb0e05f011decb630f3148d0163b3bd39690dde4078e4cfb69fecf020d6278a27bad10c58023c0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000",
  blockhashingBlob:
    "1010f4bae0b4069d648e741d85ca0e7acb4501f051b27e9b107d3cd7a3f03aa7f776089117c81a00000000e0c20372be23d356347091025c5b5e8f2abf83ab618378565cce2b703491523401",
  seedHash: "e2aa0b7b55042cd48b02e395d78fa66a29815ccc1584e38db2d1f0e8485cd44f",
};

/**
 * Mined mainnet blocks from monerod's get_block (Cuprate test-utils/src/rpc/data/json.rs): the block
 * id and miner transaction hash pin the hashing-blob derivation (2751210 has two transactions, so its
 * merkle tree has an odd leaf count). Block 2751506's PoW hash is known (Cuprate test-utils
 * src/data/statics.rs: 10b473b5…00000000) but its seed — the id of block 2750464 — was not found in
 * any source at hand, so its PoW is not checked here.
 */
export const MAINNET_BLOCKS = [
  {
    height: 2751506,
    blob: "1010c58bab9b06b27bdecfc6cd0a46172d136c08831cf67660377ba992332363228b1b722781e7807e07f502cef8a70101ff92f8a7010180e0a596bb1103d7cbf826b665d7a532c316982dc8dbc24f285cbc18bbcc27c7164cd9b3277a85d034019f629d8b36bd16a2bfce3ea80c31dc4d8762c67165aec21845494e32b7582fe00211000000297a787a000000000000000000000000",
    id: "43bd1f2b6556dcafa413d8372974af59e4e8f37dbf74dc6b2a9b7212d0577428",
    minerTxHash: "e49b854c5f339d7410a77f2a137281d8042a0ffc7ef9ab24cd670b67139b24cd",
  },
  {
    height: 2751210,
    blob: "1010d8faa89b06f8a36d0dbe4d27d2f52160000563896048d71067c31e99a3869bf9b7142227bb5328010b02a6f6a70101ffeaf5a70101a08bc8b3bb11036d6713f5aa552a1aaf33baed7591f795b86daf339e51029a9062dfe09f0f909b312b0124d6023d591c4d434000e5e31c6db718a1e96e865939930e90a7042a1cd4cbd202083786a78452fdfc000002a89e380a44d8dfc64b551baa171447a0f9c9262255be6e8f8ef10896e36e2bf90c4d343e416e394ad9cc10b7d2df7b2f39370a554730f75dfcb04944bd62c299",
    id: "86d421322b700166dde2d7eba1cc8600925ef640abf6c0a2cc8ce0d6dd90abfd",
    minerTxHash: "dabe07900d3123ed895612f4a151adb3e39681b145f0f85bfee23ea1fe47acf2",
  },
] as const;

/**
 * monerod's calc_pow example (Monero RPC documentation, via Cuprate test-utils json.rs): a mainnet
 * block template at height 2286447 with that epoch's seed. calc_pow hashes the blob it is given as is
 * (src/rpc/core_rpc_server.cpp → get_block_longhash(blobdata)), and the example passes the whole block
 * blob, not its hashing blob — so the result is RandomX over all 352 bytes, computed by monerod.
 */
export const MONEROD_CALC_POW = {
  height: 2286447,
  majorVersion: 14,
  blob: "0e0ed286da8006ecdc1aab3033cf1716c52f13f9d8ae0051615a2453643de94643b550d543becd0000000002abc78b0101ffefc68b0101fcfcf0d4b422025014bb4a1eade6622fd781cb1063381cad396efa69719b41aa28b4fce8c7ad4b5f019ce1dc670456b24a5e03c2d9058a2df10fec779e2579753b1847b74ee644f16b023c00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000051399a1bc46a846474f5b33db24eae173a26393b976054ee14f9feefe99925233802867097564c9db7a36af5bb5ed33ab46e63092bd8d32cef121608c3258edd55562812e21cc7e3ac73045745a72f7d74581d9a0849d6f30e8b2923171253e864f4e9ddea3acb5bc755f1c4a878130a70c26297540bc0b7a57affb6b35c1f03d8dbd54ece8457531f8cba15bb74516779c01193e212050423020e45aa2c15dcb",
  seedHash: "d432f499205150873b2572b5f033c9c6e4b7c6f3394bd2dd93822cd7085e7307",
  result: "d0402d6834e26fb94a9ce38c6424d27d2069896a9b8b1ce685d79936bca6e0a8",
};

/**
 * A real P2Pool share on a Monero mainnet block template (height 3258099, October 2024): the first
 * 1829 bytes of SChernykh/p2pool tests/src/block.dat (its Monero block; the rest is P2Pool side-chain
 * data), with the seed and PoW hash that tests/src/pool_block_tests.cpp asserts. The hash meets the
 * share's side-chain difficulty (1,828,732,004), not mainnet's, so it is a mined share, not a block.
 */
export const P2POOL_MAINNET_SHARE = {
  height: 3258099,
  sidechainDifficulty: 1828732004,
  blob: [
    "1010c5b5aeb8062aaa1728867d88194c8866077942e8f4ca628c1989a316f72182eb4f4ea0e5da4008021502afeec601",
    "01fff3edc6011b84dab7ee4003de59949520f12639b7272830eb68bd72d13c573603c6a2b2b7327f7a05d7868730f8b6",
    "ea9d0503100fffdf58412f319bc40ba0a9e2976ab7e9fe0207858767f21347ab47d821446db29bf9e21f032be6a47324",
    "65ec8f675fd10827edfa9640f562de542d064bf787f1c4b21977c801c6f9edd70f03fb789b8f901867c3ae9dd059c592",
    "960b0ba491f656633bcc4741c1cee3fa7983b9c5e6de9f820903e2a4f40b5581a6100d2e574023bdf3a218fa03eff832",
    "293a312dc906b479f92651f3e6b4d50a03b9329e85bfcd433409a667299db276556fe5421dca793fb6540d25139936d6",
    "b5bad2869eaf0503a0077d500ad0185e88a621422ca2b5aff7d30044269bd9750dcd275d1df15588c7a1b5cea2050373",
    "37ace5ff4c67d92d0f9f7238bbba69feaf92a48e8d2b95285f73e95d874117c398f993ad8b0203bdbcf060ae9cf7f449",
    "108b54b4dc9fad0f2d3544e23f4591b56f451d12f7d8df3ae485bdb205034beab9824b4bea3ef541a127d1783f535f60",
    "0f962f23429e70baf9498161aa7e2eb2da95f00b0311339cf9ebb1106476c858fd6b1cf4f9fd8b95e2fac7f3175a36d0",
    "102c860a5ba0e6dba4f30f03b251f78c624339feff63977c0ab45483cdbeb8da82f8893e6e7b83f785686efdd1a7c38c",
    "b10a034127720f62837635cf61c35efc4705dd27eae09f78d3131371ba02de94f23c68d8dbc9e291b6020344ebceb324",
    "02703484b2f590ecd51e9969f97189767587da8fe62b67554c0cfc869990f3be240305d7009d54a457b1be4856564e50",
    "114996d6e4e1ae65d2cd20393a0f009a00a5b8f6a6ee9805031d5bb48b1c4ccba85a6e0968f23268a86fb9068fd391d7",
    "28dae5352ab3defbdab9bffd809b050368a7df3161763a69d01ee455ae8d267128737143ff5e5bbef82d1329b62cd5ce",
    "97b7deeabc1503132a098a793dbd17b37c59ed99068b5ce137b3d34abf30254aaa1468519c1820fae1dde6e344037fca",
    "82ce1e2c1e7fa4002b455c3e9258c83cd0b58db1d9966e259baef524c47c13a692bbef1a03a18079fb20eb6e596a2778",
    "da3dce5e066088990500ad4dffc7530fe55968ccdd90d7c196a780010354c2abbe694292c4fac13ca20d698e23e1f68b",
    "5ce76252b0bbd192555d2768e1e8c889989a050355fcc98e626828b6411e50b92f5e4f9e26cb1453f33c44a302568305",
    "bf0d0b58dcd297f9ed0a035308a8005bdcb2f9353642d29838b7330ffda0794d7b940bb3deafdd356a083442fae4ef8f",
    "10038856a67b0ffc41344705603a7c07afa2bb33d756c78efdf949bf794792ffa5c70dc3ddd29e0503e810460002257b",
    "4cd61952f9227540a6019ecc62fc363a8d381de643ef03d65c6b949cf8a70503e65aca1928d6d78bb03c367dc06e9631",
    "5c804c9f9fd0684c2eb79488c6f685ccaabdcbfba405030479195adffaa96237e513f78594fe0172e5b1bf9927384df6",
    "b271c96c0be034d94a01eebb7345ad57f9b80ee155f8823f27a7dd49313306b6f509ae929b5839ae37d102044710dbb1",
    "03210053041164e1b220246b06037a25ee200f35d6c8d1f4086a8f04f558b16e23c5aa00143ab76ffd5308690581415c",
    "a729b517288927d596ec0e09d06d71316b14e729ca85bc5a47f40f2e05a04de51eebc27ed7b68c95575cda6149ba6448",
    "52b3d4e99d3727ed59abb606abff20db52d64cdf5ce41f37a2e564304f2e133119d8b06fa7191710cab0c6b23df204a9",
    "145b129db01acbb91b0a0eadeeef636db83bdb5e2a527a0d62dc98aac4bc37f7192d0abd14c496fc20d6a0ea95d0569c",
    "4af1fbd21332f6dff7477c427495507744b5c1dcf3aab5365d1914b3bad484281f9d2a2801d1fc02ca2a32e20b9932b4",
    "ef32842ca8f14a787a0c1b13ae58c236406cb9c7c0a28c87930de31dad3738aa50dc3eee82b03c9118f037ac8fda28fe",
    "2e004c40ec0a8990a1b5eb8ab8d632f2fa5fd642075f63bf1dab6a52e2a01c6f252b1c4f8c6c3014836e77d06b7f01e6",
    "44abdeaccb61cb82c37cdb81be80d16a5fd7b0c1627695b14381864cee4c9b88aa6fe1c8ed0a57a9ac707aaa6e182c51",
    "f09cef5c346dc539f24426f8c40d56ab7cf8a1450eecf9982bd8ae63a41547651689b16cce9fb2654fd33c8601972645",
    "0f8d53f0a85e31e95cfeff7eaf3fc6f7fb3ee3f30e70dca7238d31acdd5f687ee9d0d6730cf85ee71926c8a27052cb6d",
    "acb90aaaa06e373cb4e5bf6152129a9719cad78ec136164f647313d0e80cfc4199588648ca5efc9b83ffe4a58e74febb",
    "0bc5e010837e0c89777d1de4b16f35b9827e7cc57be16ba93abcd9e42a9221e0ccd56595a451bf6f1bf34ffa67152a9d",
    "f7cc7d1619462fb54003dcefbcddfbf95807f02cb4e6f2571ae6c12db4d13c875ea18f2b3694e2d84a07a601ae7c69fc",
    "5c2ce90cf9182bb557f03b8a9b55426837da8547aff3c5f360aef7beecc4cefd58b79b96c728c988f67efb0f3b3d8e9b",
    "fad1dd590a",
  ].join(""),
  seedHash: "bf513dbe52c22b09e65edae222ec902d6adb75585a0141b81a165f0fb0c9c0bc",
  powHash: "0906c001cc0900098fe1b62593f8ba52bd1ae2a0806096aa361a9f1702000000",
};
