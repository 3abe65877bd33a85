#!/usr/bin/env python3
"""Puts a generated section into a markdown document.

    bench/replace-doc-section.py DOC SECTION_FILE

The section file's first line is its "## " heading. The section of DOC under the same heading (up to the
next "## " heading or the end of the file) is replaced by the file's contents; a DOC without that heading
gets the section appended.
"""
import re
import sys

doc, section_file = sys.argv[1], sys.argv[2]
section = open(section_file).read()
heading = section.split('\n', 1)[0]
if not heading.startswith('## '):
    sys.exit('replace-doc-section: %s does not start with a "## " heading' % section_file)
text = open(doc).read()
m = re.search(r'^' + re.escape(heading) + r'\n.*?(?=^## |\Z)', text, flags=re.S | re.M)
if m:
    text = text[:m.start()] + section + text[m.end():]
else:
    text = text.rstrip('\n') + '\n\n' + section
open(doc, 'w').write(text)
