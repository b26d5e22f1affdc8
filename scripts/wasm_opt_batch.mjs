// `wasm-opt -Oz` over many wasm files in one process (issue 35: the release bundle's
// ~680 route chunks took ~6 minutes as one `wasm-opt` process each, because npm's
// binaryen is itself a ~10 MB wasm module that node decodes and compiles at every start).
//
//   node scripts/wasm_opt_batch.mjs BINARYEN_INDEX_JS < list.json
//
// BINARYEN_INDEX_JS: the `index.js` of npm's binaryen 132 (the package whose
// `bin/wasm-opt` scripts/setup.sh installs); list.json: `[[input, output], ...]`.
// Each file gets what the command line `wasm-opt -Oz --enable-bulk-memory
// --enable-nontrapping-float-to-int --enable-sign-ext --enable-mutable-globals` does —
// byte for byte (scripts/split_bundle.py keeps the flags and checks one file against the
// command line): optimize level 2, shrink level 2, optimized Stack IR when writing, no
// names, and the features of the file's own `target_features` section plus the enabled
// ones. Exits 1 naming the file when a module does not read or does not validate.
import fs from 'node:fs';
import { pathToFileURL } from 'node:url';

const { default: binaryen } = await import(pathToFileURL(process.argv[2]).href);
binaryen.setOptimizeLevel(2);
binaryen.setShrinkLevel(2);
binaryen.setDebugInfo(false);
binaryen.setGenerateStackIR(true);
binaryen.setOptimizeStackIR(true);
const F = binaryen.Features;
const enabled = F.BulkMemory | F.BulkMemoryOpt | F.NontrappingFPToInt | F.SignExt | F.MutableGlobals;

for (const [input, output] of JSON.parse(fs.readFileSync(0, 'utf8'))) {
  let module;
  try {
    module = binaryen.readBinary(fs.readFileSync(input));
  } catch (error) {
    console.error(`wasm_opt_batch: ${input} does not read: ${error}`);
    process.exit(1);
  }
  module.setFeatures(module.getFeatures() | enabled);
  module.optimize();
  if (!module.validate()) {
    console.error(`wasm_opt_batch: ${input} does not validate after optimizing`);
    process.exit(1);
  }
  fs.writeFileSync(output, module.emitBinary());
  module.dispose();
}
