// Fill a donjon castle sheet with pdf-lib, as a program would: node fill.mjs IN.pdf OUT.pdf VALUES.json
// VALUES.json maps field names to text (text fields) or true/false (checkboxes). pdf-lib regenerates the
// appearance of every field it changes (its default), in its own Helvetica.
import { readFileSync, writeFileSync } from "node:fs";
import { PDFDocument } from "pdf-lib";

const [input, output, valuesFile] = process.argv.slice(2);
const values = JSON.parse(readFileSync(valuesFile, "utf8"));
const doc = await PDFDocument.load(readFileSync(input));
const form = doc.getForm();
for (const [name, value] of Object.entries(values)) {
  if (typeof value === "boolean") {
    const box = form.getCheckBox(name);
    if (value) box.check(); else box.uncheck();
  } else {
    form.getTextField(name).setText(String(value));
  }
}
try {
  writeFileSync(output, await doc.save());
} catch (err) {
  process.stderr.write(`pdf-lib: ${err.message}\n`);
  process.exit(3);
}
