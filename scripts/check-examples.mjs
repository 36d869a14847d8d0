// Validates Kubernetes manifests against the API's schemas (kubernetes-models:
// the OpenAPI schemas of each kind, types and required fields; fields it does
// not know are not reported). Run by scripts/check-examples.sh.
import fs from "node:fs";
import YAML from "yaml";

let failed = false;
for (const file of process.argv.slice(2)) {
  for (const document of YAML.parseAllDocuments(fs.readFileSync(file, "utf8"))) {
    if (document.errors.length > 0) {
      console.log(`${file}: ${document.errors[0].message}`);
      failed = true;
      continue;
    }
    const object = document.toJS();
    const name = `${file}: ${object.kind} ${object.metadata?.name}`;
    let model;
    try {
      model = (await import(`kubernetes-models/${object.apiVersion}/${object.kind}`))[object.kind];
    } catch (unknown) {
      console.log(`${name}: no such kind in ${object.apiVersion}`);
      failed = true;
      continue;
    }
    try {
      new model(object).validate();
      console.log(`${name}: valid`);
    } catch (invalid) {
      console.log(`${name}: ${invalid.message}`);
      failed = true;
    }
  }
}
process.exitCode = failed ? 1 : 0;
