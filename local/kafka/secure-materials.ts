// The throwaway secrets of a secured local broker, made at start-up in the broker's own directory
// (never in the repository): a private CA, the broker's certificate signed by it (SAN 127.0.0.1
// and localhost, so clients verify the hostname), a client certificate for mutual TLS, and random
// passwords for the SASL users. openssl makes the certificates (Node's crypto cannot sign X.509);
// every file is readable by its owner only.
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { localBrokerError } from './errors.ts';
import { lastLines, runCommand } from './run-command.ts';

/** The principal every secured broker has: a super user, for setup (topics, ACLs) only. */
export const ADMIN_USER = 'admin';
/** Subject CN of the broker's certificate, which is also its principal on the mTLS listeners. */
export const BROKER_CERTIFICATE_NAME = 'scorestream-broker';
/** Subject CN (and principal) of the client certificate made for mutual TLS. */
export const CLIENT_CERTIFICATE_NAME = 'scorestream-client';

const userNamePattern = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

const materialsSchema = z.object({
  caCertificate: z.string(),
  brokerKeystore: z.string(),
  clientCertificate: z.string(),
  clientKey: z.string(),
  users: z.record(z.string(), z.string()),
});

/** Paths of the PEM files and each SASL user's password (the admin's included). */
export type SecurityMaterials = z.infer<typeof materialsSchema>;

function materialsFile(directory: string): string {
  return join(directory, 'tls', 'materials.json');
}

async function openssl(args: string[], cwd: string): Promise<void> {
  const result = await runCommand('openssl', args, { cwd, timeoutMs: 60_000 });
  if (result.missing) {
    throw localBrokerError(
      'KAFKA_PREREQUISITE_MISSING',
      'A secured local broker needs openssl 3 to make its throwaway certificates: install it (Debian/Ubuntu: `apt-get install -y openssl`; macOS: `brew install openssl@3`).',
    );
  }
  if (result.code !== 0) {
    throw localBrokerError('KAFKA_BROKER_START_FAILED', `openssl ${args[0]} failed making the broker's certificates (openssl 3.0 or newer is needed):\n${lastLines(result.stderr, 10)}`);
  }
}

// P-256 keys: generated in milliseconds, understood by Kafka's PEM key store and by Node.
const newKey = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];
const days = ['-days', '30'];

/** A self-signed CA (cert + key) under `directory` as `<name>.pem` / `<name>.key`. */
export async function makeCertificateAuthority(directory: string, name: string, subject = 'scorestream local CA'): Promise<{ certificate: string; key: string }> {
  await openssl(
    ['req', '-x509', ...newKey, '-keyout', `${name}.key`, '-out', `${name}.pem`, ...days, '-subj', `/CN=${subject}`, '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign'],
    directory,
  );
  return { certificate: join(directory, `${name}.pem`), key: join(directory, `${name}.key`) };
}

async function makeSignedCertificate(directory: string, name: string, commonName: string, ca: { certificate: string; key: string }, subjectAltName?: string): Promise<{ certificate: string; key: string }> {
  await openssl(
    [
      'req', '-x509', ...newKey, '-keyout', `${name}.key`, '-out', `${name}.pem`, ...days, '-subj', `/CN=${commonName}`,
      '-CA', ca.certificate, '-CAkey', ca.key, '-addext', 'basicConstraints=critical,CA:FALSE',
      ...(subjectAltName === undefined ? [] : ['-addext', `subjectAltName=${subjectAltName}`]),
    ],
    directory,
  );
  return { certificate: join(directory, `${name}.pem`), key: join(directory, `${name}.key`) };
}

/**
 * Makes (or, when the directory already holds them, reuses) the CA, the broker's key store, the
 * client certificate and a password per user. `users` are the SASL users besides the admin.
 */
export async function ensureSecurityMaterials(directory: string, users: readonly string[]): Promise<SecurityMaterials> {
  for (const user of users) {
    if (!userNamePattern.test(user) || user === ADMIN_USER) throw localBrokerError('KAFKA_BROKER_START_FAILED', `'${user}' cannot be a SASL user of the local broker: use letters, digits, '.', '_' and '-', and not '${ADMIN_USER}'.`);
  }
  const existing = await readFile(materialsFile(directory), 'utf8').then(
    (text) => materialsSchema.safeParse(JSON.parse(text)),
    () => undefined,
  );
  if (existing?.success === true) {
    const missing = users.filter((user) => existing.data.users[user] === undefined);
    if (missing.length === 0) return existing.data;
    // A role added since this directory was made (the feedback join's `agreement`): its CA and the
    // other users' passwords stay, which its formatted storage and its clients hold. The new user
    // gets a password for PLAIN at once (the listener's JAAS line is written at every start);
    // SCRAM credentials are only made when the storage is formatted, on a fresh directory.
    const materials: SecurityMaterials = { ...existing.data, users: { ...existing.data.users, ...Object.fromEntries(missing.map((user) => [user, randomBytes(18).toString('base64url')])) } };
    await writeFile(materialsFile(directory), `${JSON.stringify(materials, null, 2)}\n`, { mode: 0o600 });
    return materials;
  }

  const tls = join(directory, 'tls');
  await mkdir(tls, { recursive: true, mode: 0o700 });
  const ca = await makeCertificateAuthority(tls, 'ca');
  const broker = await makeSignedCertificate(tls, 'broker', BROKER_CERTIFICATE_NAME, ca, 'IP:127.0.0.1,DNS:localhost');
  const client = await makeSignedCertificate(tls, 'client', CLIENT_CERTIFICATE_NAME, ca);
  // Kafka's PEM key store wants the private key followed by the certificate chain in one file.
  const brokerKeystore = join(tls, 'broker-keystore.pem');
  await writeFile(brokerKeystore, `${await readFile(broker.key, 'utf8')}${await readFile(broker.certificate, 'utf8')}`, { mode: 0o600 });
  const passwords: Record<string, string> = { [ADMIN_USER]: randomBytes(18).toString('base64url') };
  for (const user of users) passwords[user] = randomBytes(18).toString('base64url');
  const materials: SecurityMaterials = {
    caCertificate: ca.certificate,
    brokerKeystore,
    clientCertificate: client.certificate,
    clientKey: client.key,
    users: passwords,
  };
  await writeFile(materialsFile(directory), `${JSON.stringify(materials, null, 2)}\n`, { mode: 0o600 });
  for (const file of [ca.key, broker.key, client.key]) await chmod(file, 0o600);
  return materials;
}

/** The materials a secured broker's directory holds, or undefined when it holds none. */
export async function readSecurityMaterials(directory: string): Promise<SecurityMaterials | undefined> {
  try {
    const parsed = materialsSchema.safeParse(JSON.parse(await readFile(materialsFile(directory), 'utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** Where a secured broker's directory keeps its materials (users' passwords included; mode 0600). */
export function securityMaterialsFile(directory: string): string {
  return materialsFile(directory);
}
