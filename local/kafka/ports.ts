// Free TCP ports on 127.0.0.1, picked at start so several brokers (tests, benchmarks, the demo)
// can run side by side.
import { createServer } from 'node:net';

/** Resolves true when nothing listens on 127.0.0.1:port right now. */
export function isPortFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () => server.close(() => resolve(true)));
  });
}

/** A port the operating system considers free now (another process may still take it first). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen({ port: 0, host: '127.0.0.1', exclusive: true }, () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => (port > 0 ? resolve(port) : reject(new Error('the operating system handed out no port'))));
    });
  });
}

/** Two distinct free ports: one for clients, one for the KRaft controller. */
export async function pickBrokerPorts(preferred?: { broker: number; controller: number }): Promise<{ broker: number; controller: number }> {
  if (preferred !== undefined && (await isPortFree(preferred.broker)) && (await isPortFree(preferred.controller))) return preferred;
  const broker = await freePort();
  let controller = await freePort();
  while (controller === broker) controller = await freePort();
  return { broker, controller };
}
