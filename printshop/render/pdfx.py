"""PDF/X-1a and PDF/X-4: the press file as a shop's preflight wants it. ReportLab writes the content
(CMYK only, fonts embedded, no transparency: the profile's paints and validation see to that); this
step adds what the standard asks of the document: the output intent, the PDF/X version key and
Trapped.

The output intent names a registered characterization (e.g. "CGATS TR 001", SWOP), for which PDF/X
does not require an embedded ICC profile. PDF/X-4 requires one (DestOutputProfile: the profile's
CMYK ICC profile from printshop/icc/, the one its art was converted with) and XMP metadata naming
the version, with dates and ids taken from the file itself. The content is the same PDF 1.4 as for
PDF/X-1a (PDF/X-4 allows up to 1.6). pikepdf rewrites the file with a deterministic /ID, so the same
input still gives the same bytes.
"""

from __future__ import annotations

import hashlib
import io
import re
import uuid
from pathlib import Path

import pikepdf

from printshop.project.models.profile import OutputIntent


def make_pdfx(data: bytes, intent: OutputIntent, icc: Path | None = None) -> bytes:
    """`icc`: the CMYK ICC profile PDF/X-4 embeds in its output intent (required for PDF/X-4)."""
    with pikepdf.open(io.BytesIO(data)) as pdf:
        output_intent = pikepdf.Dictionary(
            Type=pikepdf.Name.OutputIntent,
            S=pikepdf.Name.GTS_PDFX,
            OutputConditionIdentifier=pikepdf.String(intent.condition),
            OutputCondition=pikepdf.String(intent.info or intent.condition),
            RegistryName=pikepdf.String(intent.registry),
            Info=pikepdf.String(intent.info or intent.condition),
        )
        if intent.version == "PDF/X-4":
            if icc is None:
                raise ValueError("PDF/X-4 needs an ICC profile for its output intent")
            profile = pdf.make_stream(icc.read_bytes())
            profile.N = 4
            output_intent.DestOutputProfile = profile
        pdf.Root.OutputIntents = pikepdf.Array([pdf.make_indirect(output_intent)])
        pdf.docinfo[pikepdf.Name.GTS_PDFXVersion] = pikepdf.String(intent.version)
        pdf.docinfo[pikepdf.Name.Trapped] = pikepdf.Name("/False")
        if intent.version == "PDF/X-4":
            _xmp(pdf, intent.version, hashlib.sha256(data).digest())
        for page in pdf.pages:  # PDF/X wants TrimBox (or ArtBox) on every page; ours always has it
            if pikepdf.Name.TrimBox not in page.obj:
                page.obj.TrimBox = page.obj.MediaBox
        out = io.BytesIO()
        pdf.save(
            out,
            deterministic_id=True,
            compress_streams=True,
            force_version="1.4",
            object_stream_mode=pikepdf.ObjectStreamMode.disable,
        )
        return out.getvalue()


def _xmp(pdf: pikepdf.Pdf, version: str, digest: bytes) -> None:
    """The XMP packet PDF/X-4 requires, consistent with the document information: title, dates,
    Trapped, the PDF/X version, and document and instance ids derived from the content (so they are
    the same for the same input, and differ when it changes)."""
    info = pdf.docinfo
    created = _xmp_date(str(info.get("/CreationDate", "D:20000101000000+00'00'")))
    modified = _xmp_date(
        str(info.get("/ModDate", info.get("/CreationDate", "D:20000101000000+00'00'")))
    )
    document_id = f"uuid:{uuid.UUID(bytes=digest[:16], version=4)}"
    with pdf.open_metadata(set_pikepdf_as_editor=False, update_docinfo=False) as meta:
        meta["dc:title"] = str(info.get("/Title", ""))
        meta["xmp:CreateDate"] = created
        meta["xmp:ModifyDate"] = modified
        meta["xmp:MetadataDate"] = modified
        meta["xmp:CreatorTool"] = str(info.get("/Creator", "printshop"))
        meta["pdf:Producer"] = str(info.get("/Producer", "printshop"))
        meta["pdf:Trapped"] = "False"
        meta["pdfxid:GTS_PDFXVersion"] = version
        meta["xmpMM:DocumentID"] = document_id
        meta["xmpMM:InstanceID"] = document_id
        meta["xmpMM:VersionID"] = "1"
        meta["xmpMM:RenditionClass"] = "default"


def _xmp_date(pdf_date: str) -> str:
    """D:YYYYMMDDHHmmSS+HH'mm' as XMP's YYYY-MM-DDTHH:mm:SS+HH:mm."""
    match = re.match(
        r"D:(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})([+-Z])?(\d{2})?'?(\d{2})?", pdf_date
    )
    if match is None:
        return "2000-01-01T00:00:00+00:00"
    year, month, day, hour, minute, second, sign, zh, zm = match.groups()
    zone = "Z" if sign in (None, "Z") else f"{sign}{zh or '00'}:{zm or '00'}"
    return f"{year}-{month}-{day}T{hour}:{minute}:{second}{zone}"
