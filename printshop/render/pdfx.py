"""PDF/X-1a: the press file as a shop's preflight wants it. ReportLab writes the content (CMYK only,
fonts embedded, no transparency: the profile's paints and validation see to that); this step adds
what the standard asks of the document: the output intent, the PDF/X version key and Trapped.

The output intent names a registered characterization (e.g. "CGATS TR 001", SWOP), for which PDF/X
does not require an embedded ICC profile. pikepdf rewrites the file with a deterministic /ID, so
the same input still gives the same bytes.
"""
from __future__ import annotations

import io

import pikepdf

from printshop.model import OutputIntent


def make_pdfx(data: bytes, intent: OutputIntent) -> bytes:
    with pikepdf.open(io.BytesIO(data)) as pdf:
        pdf.Root.OutputIntents = pikepdf.Array([pdf.make_indirect(pikepdf.Dictionary(
            Type=pikepdf.Name.OutputIntent,
            S=pikepdf.Name.GTS_PDFX,
            OutputConditionIdentifier=pikepdf.String(intent.condition),
            OutputCondition=pikepdf.String(intent.info or intent.condition),
            RegistryName=pikepdf.String(intent.registry),
            Info=pikepdf.String(intent.info or intent.condition),
        ))])
        pdf.docinfo[pikepdf.Name.GTS_PDFXVersion] = pikepdf.String(intent.version)
        pdf.docinfo[pikepdf.Name.Trapped] = pikepdf.Name("/False")
        for page in pdf.pages:  # PDF/X wants TrimBox (or ArtBox) on every page; ours always has it
            if pikepdf.Name.TrimBox not in page.obj:
                page.obj.TrimBox = page.obj.MediaBox
        out = io.BytesIO()
        pdf.save(out, deterministic_id=True, compress_streams=True, force_version="1.4",
                 object_stream_mode=pikepdf.ObjectStreamMode.disable)
        return out.getvalue()
