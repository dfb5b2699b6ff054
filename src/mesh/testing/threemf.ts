// 3MF files for tests, laid out as the slicers write them (3MF core specification 1.3, OPC packaging):
// [Content_Types].xml, _rels/.rels naming the start part, 3D/3dmodel.model, and with the production
// extension, objects kept in other parts (3D/Objects/*.model) the way Bambu Studio writes them.

import { strToU8, Zip, ZipDeflate, type Zippable, zipSync } from 'fflate';
import { concatChunks, type IndexedMesh } from './generate.ts';

export const CORE = 'http://schemas.microsoft.com/3dmanufacturing/core/2015/02';
export const PRODUCTION = 'http://schemas.microsoft.com/3dmanufacturing/production/2015/06';

export type Component = { objectid: number; transform?: string; path?: string };
export type ObjectSpec =
  | { id: number; mesh: IndexedMesh; name?: string }
  | { id: number; components: Component[]; name?: string };
export type Item = { objectid: number; transform?: string; path?: string };

export interface ModelSpec {
  unit?: string;
  objects: ObjectSpec[];
  /** null: no <build> element at all. */
  build: Item[] | null;
  /** Written as the model's first bytes after the XML declaration (a DOCTYPE, say). */
  prolog?: string;
  /** Line ends of the XML: '\r\n' as Windows exporters write. */
  eol?: string;
  /** How coordinates are written (default: as JavaScript prints them). */
  number?: (x: number) => string;
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

function reference(tag: string, r: Component | Item): string {
  const transform = r.transform ? ` transform="${r.transform}"` : '';
  const path = r.path ? ` p:path="${r.path}"` : '';
  return `<${tag} objectid="${r.objectid}"${transform}${path}/>`;
}

/** The XML of one model part. */
export function modelXml(spec: ModelSpec): string {
  const eol = spec.eol ?? '\n';
  const lines: string[] = ['<?xml version="1.0" encoding="UTF-8"?>'];
  if (spec.prolog) lines.push(spec.prolog);
  lines.push(
    `<model unit="${spec.unit ?? 'millimeter'}" xml:lang="en-US" xmlns="${CORE}" xmlns:p="${PRODUCTION}" requiredextensions="p">`,
    ' <metadata name="Application">printshop tests</metadata>',
    ' <resources>',
  );
  for (const object of spec.objects) {
    const name = object.name ? ` name="${esc(object.name)}"` : '';
    lines.push(`  <object id="${object.id}" type="model"${name}>`);
    if ('mesh' in object) {
      lines.push('   <mesh>', '    <vertices>');
      const v = object.mesh.vertices;
      const num = spec.number ?? String;
      for (let k = 0; k < v.length; k += 3)
        lines.push(`     <vertex x="${num(v[k]!)}" y="${num(v[k + 1]!)}" z="${num(v[k + 2]!)}"/>`);
      lines.push('    </vertices>', '    <triangles>');
      for (const face of object.mesh.faces) {
        for (let k = 1; k + 1 < face.length; k++) {
          lines.push(`     <triangle v1="${face[0]}" v2="${face[k]}" v3="${face[k + 1]}"/>`);
        }
      }
      lines.push('    </triangles>', '   </mesh>');
    } else {
      lines.push('   <components>');
      for (const c of object.components) lines.push(`    ${reference('component', c)}`);
      lines.push('   </components>');
    }
    lines.push('  </object>');
  }
  lines.push(' </resources>');
  if (spec.build !== null) {
    lines.push(' <build>');
    for (const item of spec.build) lines.push(`  ${reference('item', item)}`);
    lines.push(' </build>');
  }
  lines.push('</model>', '');
  return lines.join(eol);
}

const CONTENT_TYPES = `<?xml version="1.0" encoding="UTF-8"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">
 <Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>
 <Default Extension="model" ContentType="application/vnd.ms-package.3dmanufacturing-3dmodel+xml"/>
 <Default Extension="png" ContentType="image/png"/>
</Types>
`;

export function relsXml(target: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
 <Relationship Target="${target}" Id="rel-1" Type="http://schemas.microsoft.com/3dmanufacturing/2013/01/3dmodel"/>
 <Relationship Target="/Metadata/thumbnail.png" Id="rel-2" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/thumbnail"/>
</Relationships>
`;
}

export interface PackageOptions {
  /** Other model parts, by name ('3D/Objects/object_1.model'). */
  parts?: Record<string, string>;
  /** The start part's name (default 3D/3dmodel.model). */
  startPart?: string;
  /** Leave _rels/.rels out. */
  noRels?: boolean;
  /** 0: stored, else deflate level. */
  level?: 0 | 1 | 6 | 9;
  /** Raw extra entries. */
  extra?: Record<string, Uint8Array>;
}

const text = (s: string) => new TextEncoder().encode(s);

/** A 3MF archive with the start part `root` (XML text). */
export function package3mf(root: string, options: PackageOptions = {}): Uint8Array {
  const start = options.startPart ?? '3D/3dmodel.model';
  const files: Zippable = {
    '[Content_Types].xml': text(CONTENT_TYPES),
    [start]: text(root),
    'Metadata/thumbnail.png': new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  };
  if (!options.noRels) files['_rels/.rels'] = text(relsXml(`/${start}`));
  for (const [name, xml] of Object.entries(options.parts ?? {})) files[name] = text(xml);
  for (const [name, bytes] of Object.entries(options.extra ?? {})) files[name] = bytes;
  return zipSync(files, { level: options.level ?? 6, mtime: new Date('2026-01-01T00:00:00Z') });
}

/** One model part holding every object and the build, as PrusaSlicer and Cura write it. */
export function simple3mf(spec: ModelSpec, options: PackageOptions = {}): Uint8Array {
  return package3mf(modelXml(spec), options);
}

/**
 * As Bambu Studio writes it: each mesh in its own part under 3D/Objects, the start part holding objects
 * made of one component each (p:path), and the build placing those.
 */
export function bambu3mf(
  meshes: Array<{ mesh: IndexedMesh; transform?: string; componentTransform?: string }>,
  unit = 'millimeter',
): Uint8Array {
  const parts: Record<string, string> = {};
  const rootObjects: ObjectSpec[] = [];
  const build: Item[] = [];
  meshes.forEach((m, k) => {
    const name = `3D/Objects/object_${k + 1}.model`;
    parts[name] = modelXml({ unit, objects: [{ id: 1, mesh: m.mesh }], build: [] });
    const id = 2 * (k + 1);
    rootObjects.push({
      id,
      components: [
        {
          objectid: 1,
          path: `/${name}`,
          ...(m.componentTransform ? { transform: m.componentTransform } : {}),
        },
      ],
    });
    build.push({ objectid: id, ...(m.transform ? { transform: m.transform } : {}) });
  });
  return package3mf(modelXml({ unit, objects: rootObjects, build }), { parts });
}

/** A transform that scales by s and then moves by (x, y, z). */
export function scaleMove(s: number, x = 0, y = 0, z = 0): string {
  return `${s} 0 0 0 ${s} 0 0 0 ${s} ${x} ${y} ${z}`;
}

/**
 * A big UV sphere (radius 40 mm, as the bench draws it) as a 3MF file, written piece by piece: its model XML
 * would not fit one string. The same XML modelXml writes for uvSphere(40, segments, rings) (a test checks
 * it), in one part as PrusaSlicer writes it or in its own part named by p:path as Bambu Studio does.
 */
export function bigSphere3mf(segments: number, rings: number, style: 'prusa' | 'bambu'): Uint8Array {
  const out: Uint8Array[] = [];
  const zip = new Zip((err, data) => {
    if (err) throw err;
    out.push(data);
  });
  const add = (name: string, pieces: Iterable<string>) => {
    const file = new ZipDeflate(name, { level: 6 });
    file.mtime = new Date('2026-01-01T00:00:00Z');
    zip.add(file);
    for (const piece of pieces) file.push(strToU8(piece));
    file.push(new Uint8Array(0), true);
  };
  const mesh = sphereXml(40, segments, rings);
  const objectPart = '3D/Objects/object_1.model';
  const start = '3D/3dmodel.model';
  add('[Content_Types].xml', [CONTENT_TYPES]);
  add('_rels/.rels', [relsXml(`/${start}`)]);
  if (style === 'prusa') add(start, wrapMesh(mesh, 1, [{ objectid: 1 }]));
  else {
    add(objectPart, wrapMesh(mesh, 1, []));
    add(start, [
      modelXml({
        objects: [{ id: 2, components: [{ objectid: 1, path: `/${objectPart}` }] }],
        build: [{ objectid: 2 }],
      }),
    ]);
  }
  zip.end();
  return concatChunks(out);
}

/** modelXml of one mesh object (the given XML pieces) and the build, piece by piece. */
function* wrapMesh(mesh: Iterable<string>, id: number, build: Item[]): Generator<string> {
  // The text around the mesh, from modelXml with a mesh of nothing.
  const empty = modelXml({ objects: [{ id, mesh: { vertices: [], faces: [] } }], build });
  const at = empty.indexOf('   <mesh>');
  const after = empty.indexOf('  </object>');
  yield empty.slice(0, at);
  yield* mesh;
  yield empty.slice(after);
}

/** The <mesh> of uvSphere(radius, segments, rings) as modelXml writes it, about a thousand lines a piece. */
function* sphereXml(radius: number, segments: number, rings: number): Generator<string> {
  const lines: string[] = ['   <mesh>', '    <vertices>'];
  const flush = function* (force = false) {
    if (lines.length >= 1000 || force) {
      yield `${lines.join('\n')}\n`;
      lines.length = 0;
    }
  };
  const vertex = (x: number, y: number, z: number) => lines.push(`     <vertex x="${x}" y="${y}" z="${z}"/>`);
  vertex(0, 0, radius);
  // The same expressions as uvSphere, so the same numbers.
  for (let r = 1; r < rings; r++) {
    const phi = (Math.PI * r) / rings;
    for (let s = 0; s < segments; s++) {
      const theta = (2 * Math.PI * s) / segments;
      vertex(
        radius * Math.sin(phi) * Math.cos(theta),
        radius * Math.sin(phi) * Math.sin(theta),
        radius * Math.cos(phi),
      );
      yield* flush();
    }
  }
  vertex(0, 0, -radius);
  lines.push('    </vertices>', '    <triangles>');
  const south = 1 + (rings - 1) * segments;
  const at = (r: number, s: number) => 1 + (r - 1) * segments + (s % segments);
  const triangle = (a: number, b: number, c: number) =>
    lines.push(`     <triangle v1="${a}" v2="${b}" v3="${c}"/>`);
  for (let s = 0; s < segments; s++) triangle(0, at(1, s), at(1, s + 1));
  for (let r = 1; r < rings - 1; r++) {
    for (let s = 0; s < segments; s++) {
      // A quad as modelXml splits it: (0, 1, 2) and (0, 2, 3).
      triangle(at(r, s), at(r + 1, s), at(r + 1, s + 1));
      triangle(at(r, s), at(r + 1, s + 1), at(r, s + 1));
      yield* flush();
    }
  }
  for (let s = 0; s < segments; s++) triangle(at(rings - 1, s), south, at(rings - 1, s + 1));
  lines.push('    </triangles>', '   </mesh>');
  yield* flush(true);
}
