/**
 * What a certification returns: the certificate, where it was written, and the portable traces
 * written beside it. Made by certify.ts and by the shard merge, read by the reporters and the
 * library entry point.
 */
import type { Certificate } from "../../spec/certificate.ts";

export interface CertifyResult {
  readonly certificate: Certificate;
  readonly certificatePath: string;
  readonly traceFiles: readonly string[];
}
