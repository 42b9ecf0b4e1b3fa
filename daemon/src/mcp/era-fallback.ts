// Whether a remote server's failed `server/discover` probe is evidence that it speaks only the 2025
// protocol, so Ferry initializes as before. The SDK already takes an HTTP 4xx or -32601 as legacy;
// it fails on silence (no answer within the probe's bound, a 202 without a body, an event stream
// that never answers) and on a reply it cannot use (an empty 2xx, an HTML page), which are what a
// legacy server that ignores unknown methods gives. Authentication failures, 5xx answers and
// unreachable servers are not evidence: connecting again would meet them too.

import { SdkError, SdkErrorCode } from '@modelcontextprotocol/client'

/** What the probe met, in words for the log; undefined when the failure is not legacy evidence. */
export function legacyEvidence(error: unknown): string | undefined {
  for (let cause = error, depth = 0; cause instanceof Error && depth < 5; depth++) {
    if (cause instanceof SdkError) {
      if (
        cause.code === SdkErrorCode.RequestTimeout &&
        /negotiation probe timed out/i.test(cause.message)
      ) {
        return 'no answer to server/discover within the probe bound'
      }
      if (
        cause.code === SdkErrorCode.EraNegotiationFailed &&
        /unusable reply|closed during/i.test(cause.message)
      ) {
        return 'an answer to server/discover that is not a 2026-07-28 one'
      }
      return undefined
    }
    cause = cause.cause
  }
  return undefined
}
