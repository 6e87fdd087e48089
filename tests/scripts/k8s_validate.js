// k8s_validate.js - validates Kubernetes manifests offline against the
// OpenAPI schemas that kubernetes-models (npm, 4.5.1, @kubernetes-models/validate,
// ajv-compiled) carries:
//   NODE_PATH=DIR/node_modules node k8s_validate.js FILE.yaml...
// Exit 1 when a document is invalid or of a kind not listed here.
// kubernetes-models accepts unknown fields, so a ConfigMap's top-level fields
// are also checked against its own (io.k8s.api.core.v1.ConfigMap) and its
// data keys against the key rule; test_sweep_k8s.sh checks the Job's fields
// against an allow-list.
'use strict';
const fs = require('fs'), YAML = require('yaml');
const { Job } = require('kubernetes-models/batch/v1/Job');
const { ConfigMap } = require('kubernetes-models/v1/ConfigMap');
const { Pod } = require('kubernetes-models/v1/Pod');
const { PriorityClass } = require('kubernetes-models/scheduling.k8s.io/v1/PriorityClass');
const models = { 'batch/v1/Job': Job, 'v1/ConfigMap': ConfigMap, 'v1/Pod': Pod,
  'scheduling.k8s.io/v1/PriorityClass': PriorityClass };
const cmFields = ['apiVersion', 'kind', 'metadata', 'data', 'binaryData', 'immutable'];

function configMapExtra(o) {
  const extra = Object.keys(o).filter((k) => !cmFields.includes(k));
  if (extra.length) throw new Error(`unknown fields ${extra.join(', ')}`);
  for (const [k, v] of Object.entries(o.data || {}))
    if (!/^[-._a-zA-Z0-9]+$/.test(k) || typeof v !== 'string') throw new Error(`data key ${k}`);
}

let bad = 0;
for (const f of process.argv.slice(2))
  for (const doc of YAML.parseAllDocuments(fs.readFileSync(f, 'utf8'))) {
    if (doc.errors.length) { console.log(`${f}: YAML error ${doc.errors[0].message}`); bad++; continue; }
    const o = doc.toJS(); if (!o) continue;
    const M = models[`${o.apiVersion}/${o.kind}`];
    if (!M) { console.log(`${f}: no model for ${o.apiVersion}/${o.kind}`); bad++; continue; }
    try {
      new M(o).validate();
      if (o.kind === 'ConfigMap') configMapExtra(o);
      console.log(`${f}: ${o.kind}/${o.metadata && o.metadata.name} OK`);
    } catch (e) { bad++; console.log(`${f}: ${o.kind} INVALID: ${e.message}`); }
  }
process.exit(bad ? 1 : 0);
