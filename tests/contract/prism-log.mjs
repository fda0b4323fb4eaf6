// What both contract readers share: Prism's log without its colours, and each request named by
// the document's operation it matches ("POST /v1/messages/{id}").
import fs from 'node:fs';
import yaml from 'js-yaml';

export const loadYaml = (file) => yaml.load(fs.readFileSync(file, 'utf8'));

export const logLines = (file) =>
  fs.readFileSync(file, 'utf8').split('\n').map((line) => line.replace(/\x1b\[[0-9;]*m/g, ''));

export function operationNamer(doc) {
  const templates = Object.keys(doc.paths).map((path) => ({
    path,
    pattern: new RegExp('^' + path.replace(/\{[^}]+\}/g, '[^/]+') + '$'),
  }));
  return (method, url) => {
    const path = url.split('?')[0];
    const match = templates.find((t) => t.path === path) || templates.find((t) => t.pattern.test(path));
    return `${method.toUpperCase()} ${match ? match.path : path}`;
  };
}

export function operationCount(doc) {
  let operations = 0;
  for (const item of Object.values(doc.paths)) {
    for (const method of ['get', 'post', 'put', 'patch', 'delete']) if (item[method]) operations++;
  }
  return operations;
}
