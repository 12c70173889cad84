// One TLS handshake with the first broker, before any Kafka client connects: a certificate Node
// cannot verify (unknown CA, hostname mismatch, expired) or a client certificate the broker
// refuses is deterministic, yet the Kafka clients retry it as a connection error for ten seconds
// and more. The handshake says so at once, with Node's error code for kafkaAccessError to name.
// Anything else (refused, unreachable, timed out) is left to the client and its reachability hint.
import { connect } from 'node:tls';
import type { ConnectionOptions } from 'node:tls';
import { isIP } from 'node:net';

/** Resolves with Node's TLS error when the handshake fails for a certificate reason; else undefined. */
export function probeTls(broker: string, ssl: ConnectionOptions, timeoutMs: number): Promise<NodeJS.ErrnoException | undefined> {
  const separator = broker.lastIndexOf(':');
  const host = broker.slice(0, separator);
  const port = Number(broker.slice(separator + 1));
  return new Promise((resolve) => {
    // As the clients connect: SNI with the host name unless it is an address, the given options last.
    const socket = connect({ host, port, ...(isIP(host) === 0 ? { servername: host } : {}), ...ssl });
    const done = (result: NodeJS.ErrnoException | undefined) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(result);
    };
    const timer = setTimeout(() => done(undefined), timeoutMs);
    socket.once('secureConnect', () => {
      // A broker requiring a client certificate may refuse it only after the handshake (TLS 1.3):
      // wait a moment for its alert before calling the handshake good.
      setTimeout(() => done(undefined), 200);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => done(isCertificateProblem(error) ? error : undefined));
  });
}

function isCertificateProblem(error: NodeJS.ErrnoException): boolean {
  const code = error.code ?? '';
  return /CERT|SELF_SIGNED|UNABLE_TO_(VERIFY|GET_ISSUER)|ALTNAME|ALERT|SSL|OSSL|KEY_VALUES_MISMATCH/.test(code) && !/ECONN|ETIMEDOUT|ENOTFOUND/.test(code);
}
