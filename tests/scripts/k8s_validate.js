// k8s_validate.js - validates Kubernetes manifests offline against the
// OpenAPI schemas that kubernetes-models (npm, 4.5.1) carries, ajv-compiled:
//   NODE_PATH=DIR/node_modules node k8s_validate.js FILE.yaml...
// Exit 1 when a document is invalid or of a kind not listed here.
// kubernetes-models accepts unknown fields, so test_sweep_k8s.sh also
// checks the manifest's fields against an allow-list.
const fs = require('fs'), YAML = require('yaml');
const { Job } = require('kubernetes-models/batch/v1/Job');
const { ConfigMap } = require('kubernetes-models/v1/ConfigMap');
const models = { 'batch/v1/Job': Job, 'v1/ConfigMap': ConfigMap };
let bad = 0;
for (const f of process.argv.slice(2))
  for (const doc of YAML.parseAllDocuments(fs.readFileSync(f, 'utf8'))) {
    if (doc.errors.length) { console.log(`${f}: YAML error ${doc.errors[0].message}`); bad++; continue; }
    const o = doc.toJS(); if (!o) continue;
    const M = models[`${o.apiVersion}/${o.kind}`];
    if (!M) { console.log(`${f}: no model for ${o.apiVersion}/${o.kind}`); bad++; continue; }
    try { new M(o).validate(); console.log(`${f}: ${o.kind}/${o.metadata && o.metadata.name} OK`); }
    catch (e) { bad++; console.log(`${f}: ${o.kind} INVALID: ${e.message}`); }
  }
process.exit(bad ? 1 : 0);
