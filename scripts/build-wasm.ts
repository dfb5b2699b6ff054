// `npm run build:wasm`: compiles the text formats' fast paths (src/mesh/wasm/text-fast.as.ts).
import fs from 'node:fs';
import { compileTextFast, GENERATED, generatedModule } from '../src/mesh/wasm/compile.ts';

const binary = await compileTextFast();
fs.writeFileSync(GENERATED, generatedModule(binary));
console.log(`wrote ${GENERATED.pathname} (${binary.length} bytes of WebAssembly)`);
