#!/usr/bin/python3
"""Writes documents/password.doc and documents/password.xls: a Word and an Excel 97-2003 file
saved by LibreOffice with the password `vignette` (Office 97 RC4, 40-bit keys).

Needs LibreOffice and its Python bridge (Debian: libreoffice-writer-nogui,
libreoffice-calc-nogui, python3-uno); run with Debian's /usr/bin/python3 from this folder.
LibreOffice cannot save a .ppt with a password, so there is no password.ppt.
"""
import os
import subprocess
import tempfile
import time

import uno
from com.sun.star.beans import PropertyValue


def prop(name, value):
    p = PropertyValue()
    p.Name, p.Value = name, value
    return p


def main():
    profile = tempfile.mkdtemp(prefix="vignette-lo-")
    office = subprocess.Popen(["soffice", "--headless", "--invisible", "--norestore",
                               "-env:UserInstallation=" + uno.systemPathToFileUrl(profile),
                               "--accept=socket,host=127.0.0.1,port=2099;urp;"])
    local = uno.getComponentContext()
    resolver = local.ServiceManager.createInstanceWithContext("com.sun.star.bridge.UnoUrlResolver", local)
    for _ in range(120):
        try:
            context = resolver.resolve("uno:socket,host=127.0.0.1,port=2099;urp;StarOffice.ComponentContext")
            break
        except Exception:
            time.sleep(0.5)
    desktop = context.ServiceManager.createInstanceWithContext("com.sun.star.frame.Desktop", context)

    def save(factory, fill, filter_name, name):
        doc = desktop.loadComponentFromURL("private:factory/" + factory, "_blank", 0, (prop("Hidden", True),))
        fill(doc)
        url = uno.systemPathToFileUrl(os.path.abspath(os.path.join("documents", name)))
        doc.storeToURL(url, (prop("FilterName", filter_name), prop("Password", "vignette")))
        doc.close(True)

    def text(doc):
        doc.Text.setString("Secret quarterly figures\nOnly for the board.")

    def sheet(doc):
        cells = doc.Sheets.getByIndex(0)
        cells.getCellByPosition(0, 0).setString("Secret")
        cells.getCellByPosition(1, 0).setValue(42)

    save("swriter", text, "MS Word 97", "password.doc")
    save("scalc", sheet, "MS Excel 97", "password.xls")
    try:
        desktop.terminate()
    except Exception:
        pass  # the bridge closes as LibreOffice exits
    office.wait(timeout=60)


if __name__ == "__main__":
    main()
