// 3MF files for tests, laid out as the slicers write them (3MF core specification 1.3, OPC packaging):
// [Content_Types].xml, _rels/.rels naming the start part, 3D/3dmodel.model, and with the production
// extension, objects kept in other parts (3D/Objects/*.model) the way Bambu Studio writes them.

import { type Zippable, zipSync } from 'fflate';
import type { IndexedMesh } from './generate.ts';

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
      for (let k = 0; k < v.length; k += 3)
        lines.push(`     <vertex x="${v[k]}" y="${v[k + 1]}" z="${v[k + 2]}"/>`);
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
