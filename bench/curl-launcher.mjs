// Starts the upload bench's curl processes on its behalf: a fork of the bench's own large process costs it
// tens to hundreds of milliseconds of CPU that would count as the upload's, and a fork of this small one
// costs next to nothing. Reads JSON lines { id, args } (bash's arguments), answers { id, stdout, stderr } or
// { id, error }.
import { execFile } from 'node:child_process';
import readline from 'node:readline';

for await (const line of readline.createInterface({ input: process.stdin })) {
  const { id, args } = JSON.parse(line);
  execFile('bash', args, { maxBuffer: 1 << 20 }, (err, stdout, stderr) => {
    const answer = err ? { id, error: `${err.message}\n${stdout}` } : { id, stdout, stderr };
    process.stdout.write(`${JSON.stringify(answer)}\n`);
  });
}
