import { z } from "zod";

/**
 * A certificate's SHA-256 fingerprint as X509Certificate.fingerprint256 and `openssl x509 -noout
 * -fingerprint -sha256` write it: 32 colon-separated hex bytes (taken in any case). What an operator
 * compares with the certificate a server presents before trusting it.
 */
export const sha256Fingerprint = (message: string) =>
  z
    .string(message)
    .trim()
    .toUpperCase()
    .regex(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/, message);
