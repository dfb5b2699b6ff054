// The load bench's big uploads: ten 64 MB binary STLs posted at once with curl (other processes, streaming
// from disk as a browser does), each as a new browser, each file different so that none is answered from the
// content-hash dedupe; then each one's view mesh fetched, which waits for the work done after the answer.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { bigBinaryStl, concatChunks } from '../../src/mesh/testing/generate.ts';
import { multipartBody } from '../../src/server/models/testing.ts';

const run = promisify(execFile);
const MB = 1024 * 1024;

export type UploadResult = {
  status: number;
  /** Seconds from the start of all uploads to this one's answer. */
  answeredS: number;
  triangles: number | undefined;
  expectedTriangles: number;
  view: string;
  /** Seconds from the start of all uploads to its view mesh. */
  viewS: number;
  ok: boolean;
  error?: string;
};

/** Writes `count` upload bodies into dir; the multipart content type and the files. */
export function writeBodies(dir: string, count: number) {
  const stl = concatChunks(bigBinaryStl(64 * MB));
  const triangles = new DataView(stl.buffer, stl.byteOffset).getUint32(80, true);
  const { payload, contentType } = multipartBody([{ fileName: 'big-sphere.stl', bytes: stl }]);
  const headerAt = payload.indexOf(stl.subarray(0, 80));
  const files = Array.from({ length: count }, (_, i) => {
    // The 80-byte STL header is free text: a copy number there makes each file's hash its own.
    payload.write(`load bench copy ${String(i).padStart(3, '0')}`.padEnd(30), headerAt + 50, 'latin1');
    const file = path.join(dir, `upload-${i}.body`);
    fs.writeFileSync(file, payload);
    return file;
  });
  return { contentType, files, triangles, bytes: stl.length };
}

async function curl(args: string[]): Promise<{ status: number; rest: string }> {
  const { stdout } = await run('curl', ['-s', '-S', ...args], { maxBuffer: 1024 * 1024 });
  const [status, ...rest] = stdout.trim().split(' ');
  return { status: Number(status), rest: rest.join(' ') };
}

/** Posts every body at once; each answer's status and model, then its view mesh. */
export async function uploadAll(
  url: string,
  dir: string,
  bodies: ReturnType<typeof writeBodies>,
): Promise<UploadResult[]> {
  const start = performance.now();
  const seconds = () => (performance.now() - start) / 1000;
  return Promise.all(
    bodies.files.map(async (file, i): Promise<UploadResult> => {
      const jar = path.join(dir, `cookies-${i}.txt`);
      const answer = path.join(dir, `answer-${i}.json`);
      const result: UploadResult = {
        status: 0,
        answeredS: 0,
        triangles: undefined,
        expectedTriangles: bodies.triangles,
        view: '',
        viewS: 0,
        ok: false,
      };
      try {
        const up = await curl([
          ...['-c', jar, '-o', answer, '-w', '%{http_code}', '-X', 'POST'],
          ...['-H', `content-type: ${bodies.contentType}`, '-H', `origin: ${url}`, '-H', 'expect:'],
          ...['--data-binary', `@${file}`, `${url}/api/uploads`],
        ]);
        result.status = up.status;
        result.answeredS = seconds();
        const text = fs.readFileSync(answer, 'utf8');
        if (up.status !== 201) throw new Error(`upload answered ${up.status}: ${text.slice(0, 200)}`);
        const model = JSON.parse(text) as { id: string; triangles: number };
        result.triangles = model.triangles;
        const view = await curl([
          ...['-b', jar, '-o', '/dev/null', '-w', '%{http_code} %{content_type} %{size_download}'],
          `${url}/api/models/${model.id}/view.glb`,
        ]);
        result.viewS = seconds();
        result.view = `${view.status} ${view.rest}`;
        result.ok =
          model.triangles === bodies.triangles &&
          view.status === 200 &&
          view.rest.startsWith('model/gltf-binary');
        if (!result.ok)
          result.error = `triangles ${model.triangles} of ${bodies.triangles}, view ${result.view}`;
      } catch (err) {
        result.error = err instanceof Error ? err.message : String(err);
      }
      return result;
    }),
  );
}
