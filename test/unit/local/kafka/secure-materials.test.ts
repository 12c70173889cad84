// A secured local broker's directory made before a role was added: ensureSecurityMaterials keeps
// its CA, certificates and passwords (which its formatted storage and its clients hold) and only
// adds the new user's password, instead of making everything anew.
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ensureSecurityMaterials } from '../../../../local/kafka/secure-materials.ts';

describe('ensureSecurityMaterials', () => {
  const directories: string[] = [];
  afterEach(async () => {
    for (const directory of directories.splice(0)) await rm(directory, { recursive: true, force: true });
  });

  it('adds a missing user to existing materials and keeps everything else', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'scorestream-materials-'));
    directories.push(directory);
    const before = { caCertificate: '/x/ca.pem', brokerKeystore: '/x/broker-keystore.pem', clientCertificate: '/x/client.pem', clientKey: '/x/client.key', users: { admin: 'a-secret', scorestream: 's-secret' } };
    await mkdir(join(directory, 'tls'));
    await writeFile(join(directory, 'tls', 'materials.json'), JSON.stringify(before));
    const after = await ensureSecurityMaterials(directory, ['scorestream', 'agreement']);
    expect(after).toMatchObject({ ...before, users: { admin: 'a-secret', scorestream: 's-secret' } });
    expect(after.users.agreement).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(JSON.parse(await readFile(join(directory, 'tls', 'materials.json'), 'utf8'))).toEqual(after);
    // Asked again, nothing changes.
    expect(await ensureSecurityMaterials(directory, ['scorestream', 'agreement'])).toEqual(after);
  });
});
