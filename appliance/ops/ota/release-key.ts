/**
 * The Ed25519 public key (SPKI PEM) that every OTA bundle must be signed for. The private half is kept
 * by the release manager, never in the repository. A build may replace this key with
 * `PITHEAD_RELEASE_PUBKEY=<pem> make dist` (passed to `bun build --define`), e.g. for a private fork.
 */
declare const PITHEAD_RELEASE_PUBKEY: string | undefined;

const BUILT_IN = `-----BEGIN PUBLIC KEY-----
MCowBQYDK2VwAyEAo0/tJlQlf6XCxgaq0miRpTWUyiC3rddzZPtSwtxD4Y4=
-----END PUBLIC KEY-----
`;

export const RELEASE_PUBLIC_KEY: string =
  typeof PITHEAD_RELEASE_PUBKEY === "string" ? PITHEAD_RELEASE_PUBKEY : BUILT_IN;
