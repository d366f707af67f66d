"""How results read: VND as "1.250.000 ₫", percentages, minutes; and the UI's words in vi and en.

>>> format_vnd(1250000)
'1.250.000 ₫'
>>> format_percent(12.5)
'12,5%'
>>> t("confirm", "vi")
'Xác nhận'
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable
from functools import partial
from typing import Any, Literal

import pandas as pd

from aria.ui.frames import unit_of

Language = Literal["vi", "en"]


def _is_missing(value: Any) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value))


def _group_thousands(number: float, decimals: int = 0) -> str:
    """Vietnamese number style: '.' between thousands, ',' before decimals."""
    text = f"{number:,.{decimals}f}"
    return text.replace(",", "\x00").replace(".", ",").replace("\x00", ".")


def format_vnd(value: Any) -> str:
    if _is_missing(value):
        return ""
    return f"{_group_thousands(round(float(value)))} ₫"


def format_percent(value: Any, *, as_stored: bool = False) -> str:
    """Percent values as stored: 12.5 -> '12,5%'; a ratio below 1 (0.125) is shown as 12,5% too, unless the
    column says it holds percent already (``as_stored``: a change of -0,4% is never -40%)."""
    if _is_missing(value):
        return ""
    number = float(value)
    if -1.0 <= number <= 1.0 and number != 0 and not as_stored:
        number *= 100
    text = _group_thousands(number, 1)
    return f"{text.removesuffix(',0')}%"


def format_minutes(value: Any) -> str:
    if _is_missing(value):
        return ""
    number = float(value)
    return f"{_group_thousands(number, 0 if number.is_integer() else 1)} min"


def format_number(value: Any) -> str:
    if _is_missing(value):
        return ""
    number = float(value)
    return _group_thousands(number, 0 if number.is_integer() else 2)


_FORMATTERS = {"vnd": format_vnd, "percent": format_percent, "minutes": format_minutes}


def _formatter_of(name: str) -> Callable[[Any], str] | None:
    """How a column's values are shown: by the unit its name implies; "_pct" and "percent" hold percent already."""
    if unit_of(name) == "percent" and any(k in name.lower() for k in ("pct", "percent", "phan_tram")):
        return partial(format_percent, as_stored=True)
    return _FORMATTERS.get(unit_of(name))


def display_frame(df: pd.DataFrame) -> pd.DataFrame:
    """A copy of a result for display: money, percentages and minutes as readable text."""
    shown = df.copy()
    for name in shown.columns:
        if not pd.api.types.is_numeric_dtype(shown[name]) or pd.api.types.is_bool_dtype(shown[name]):
            continue
        formatter = _formatter_of(name)
        if formatter is not None:
            shown[name] = shown[name].map(formatter)
    return shown


def format_value(name: str, value: Any) -> str:
    """One value formatted by its column's unit (used for metric answers)."""
    formatter = _formatter_of(name) or format_number
    return formatter(value) if isinstance(value, numbers.Real) and not isinstance(value, bool) else str(value)


STRINGS: dict[str, dict[Language, str]] = {
    "chat_title": {"vi": "Hỏi Aria", "en": "Ask Aria"},
    "chat_placeholder": {"vi": "Hỏi về doanh thu, món bán chạy, bàn, nhân viên…", "en": "Ask about sales, dishes, tables, staff…"},
    "confirm": {"vi": "Xác nhận", "en": "Confirm"},
    "confirm_apply": {"vi": "Lưu vào cơ sở tri thức", "en": "Apply to the knowledge base"},
    "reject": {"vi": "Từ chối", "en": "Reject"},
    "reject_reason": {"vi": "Vì sao câu trả lời sai? (không bắt buộc)", "en": "Why is it wrong? (optional)"},
    "reject_send": {"vi": "Gửi", "en": "Send"},
    "rejected": {"vi": "Đã ghi nhận: câu trả lời bị từ chối. Aria không học gì từ nó.", "en": "Recorded as rejected. Nothing was learned from it."},
    "confirmed": {"vi": "Đã lưu vào cơ sở tri thức.", "en": "Saved to the knowledge base."},
    "kb_would_gain": {"vi": "Cơ sở tri thức sẽ thêm:", "en": "The knowledge base would gain:"},
    "download_csv": {"vi": "Tải CSV", "en": "Download CSV"},
    "sql_label": {"vi": "SQL (có thể sửa rồi chạy lại)", "en": "SQL (edit and re-run)"},
    "rerun": {"vi": "Chạy lại", "en": "Re-run"},
    "trace": {"vi": "Aria đã làm gì", "en": "How Aria got here"},
    "thinking": {"vi": "Aria đang tìm câu trả lời…", "en": "Aria is working on it…"},
    "done": {"vi": "Xong", "en": "Done"},
    "show_details": {"vi": "Hiện bảng, biểu đồ và chi tiết", "en": "Show the table, chart and details"},
    "done_steps": {"vi": "Xong · {n} bước", "en": "Done · {n} steps"},
    "no_rows": {"vi": "Không có dòng nào.", "en": "No rows."},
    "truncated": {"vi": "Chỉ hiện {n} dòng đầu.", "en": "Only the first {n} rows are shown."},
    "no_model_title": {"vi": "Chưa kết nối mô hình — những gì vẫn dùng được và cách kết nối",
                       "en": "No model connected — what works and how to connect one"},
    "trace_facts": {"vi": "{seconds:.1f} giây · {calls} lần gọi mô hình", "en": "{seconds:.1f} s · {calls} model calls"},
    "no_steps": {"vi": "Không có bước nào được ghi lại.", "en": "No steps were recorded."},
    "n_rows": {"vi": "{n} dòng", "en": "{n} rows"},
    "step_facts": {"vi": "lần {iteration} · {ms:.0f} ms · {calls} lần gọi mô hình",
                   "en": "iteration {iteration} · {ms:.0f} ms · {calls} model calls"},
    # the trace panel and the live progress line
    "loop_reuse": {"vi": "Dùng lại truy vấn đã xác minh", "en": "Verified query reuse"},
    "loop_retrieval": {"vi": "Vòng 1 · tìm lược đồ", "en": "Loop 1 · schema retrieval"},
    "loop_synthesis": {"vi": "Vòng 2 · viết SQL", "en": "Loop 2 · SQL synthesis"},
    "loop_execution": {"vi": "Chạy truy vấn", "en": "Execution"},
    "loop_entailment": {"vi": "Vòng 3 · kết quả có trả lời câu hỏi không?",
                        "en": "Loop 3 · does the result answer the question?"},
    "loop_enrichment": {"vi": "Bổ sung cơ sở tri thức", "en": "Knowledge base enrichment"},
    "loop_semantic": {"vi": "Lớp ngữ nghĩa (chỉ số đã định nghĩa)", "en": "Semantic layer (defined metrics)"},
    "step_retrieve": {"vi": "Đang tìm lược đồ…", "en": "Retrieving schema…"},
    "step_rewrite": {"vi": "Đang viết lại câu hỏi…", "en": "Rewriting the question…"},
    "step_generate": {"vi": "Đang viết SQL…", "en": "Writing SQL…"},
    "step_check": {"vi": "Đang kiểm tra SQL…", "en": "Checking SQL…"},
    "step_repair": {"vi": "Đang sửa SQL…", "en": "Repairing SQL…"},
    "step_execute": {"vi": "Đang chạy truy vấn…", "en": "Running the query…"},
    "step_reuse_match": {"vi": "Đang tìm truy vấn đã xác minh…", "en": "Looking for a verified query…"},
    "step_verify": {"vi": "Đang kiểm chứng kết quả…", "en": "Verifying the result…"},
    "step_semantic_parse": {"vi": "Đang đọc câu hỏi theo các chỉ số…", "en": "Reading the question against the metrics…"},
    "verdict_ok": {"vi": "đạt", "en": "ok"},
    "verdict_rewrite": {"vi": "đang viết lại câu hỏi…", "en": "rewriting…"},
    "verdict_regenerate": {"vi": "đang viết lại SQL…", "en": "regenerating…"},
    "verdict_retry": {"vi": "đang thử lại…", "en": "retrying…"},
    "origin_reused": {"vi": "Dùng lại truy vấn đã xác minh #{n} với giá trị mới.",
                      "en": "Reused verified query #{n} with new values."},
    "origin_scripted": {"vi": "Trả lời bởi mô hình thử nghiệm theo kịch bản ({script}), không phải mô hình ngôn ngữ "
                              "thật (scripted test model).",
                        "en": "Answered by the scripted test model ({script}), not a real language model."},
    "origin_semantic": {"vi": "Trả lời từ lớp ngữ nghĩa: {words}", "en": "Answered from the semantic layer: {words}"},
    # first contact and the honest "no": questions Aria can answer now
    "starters_title": {"vi": "Bạn có thể hỏi ngay:", "en": "You can ask right now:"},
    "suggestions_title": {"vi": "Bạn có thể hỏi:", "en": "You could ask:"},
    # page titles (navigation)
    "nav_chat": {"vi": "Hỏi Aria", "en": "Chat"},
    "nav_kb": {"vi": "Cơ sở tri thức", "en": "Knowledge Base"},
    "nav_history": {"vi": "Lịch sử", "en": "History"},
    "nav_workbench": {"vi": "SQL Workbench", "en": "SQL Workbench"},
    "nav_eval": {"vi": "Đánh giá", "en": "Evaluation"},
    "nav_settings": {"vi": "Cài đặt", "en": "Settings"},
    # Settings page
    "set_saved_to": {"vi": "Lưu vào `{path}`. Khởi động lại `aria demo` để thay đổi về cơ sở dữ liệu có hiệu lực.",
                     "en": "Saved to `{path}`. Restart `aria demo` for database changes to take effect."},
    "set_env_wins": {"vi": "Đang được đặt bằng biến môi trường (chúng được ưu tiên hơn tệp này): {names}",
                     "en": "Set by environment variables (they win over this file): {names}"},
    "set_save": {"vi": "Lưu", "en": "Save"},
    "set_saved": {"vi": "Đã lưu {n} thay đổi.", "en": "Saved {n} change(s)."},
    "set_nothing": {"vi": "Không có gì thay đổi.", "en": "Nothing changed."},
    "set_not_saved": {"vi": "Chưa lưu: {field}: {message}", "en": "Not saved: {field}: {message}"},
    "set_llm": {"vi": "Mô hình trả lời", "en": "Answering model"},
    "set_judge_llm": {"vi": "Mô hình chấm điểm (để trống: dùng mô hình trả lời)", "en": "Judge model (empty: the answering model)"},
    "set_llm_timeout_s": {"vi": "Thời gian chờ mỗi lần gọi mô hình (giây)", "en": "Timeout per model call (seconds)"},
    "set_theta_r": {"vi": "Ngưỡng truy xuất θ_r (0–10)", "en": "Retrieval threshold θ_r (0–10)"},
    "set_theta_s": {"vi": "Ngưỡng SQL θ_s (0–10)", "en": "SQL threshold θ_s (0–10)"},
    "set_theta_e": {"vi": "Ngưỡng kiểm chứng kết quả θ_e (0–5)", "en": "Result check threshold θ_e (0–5)"},
    "set_alpha": {"vi": "α: trọng số độ liên quan R trong Score_r", "en": "α: weight of relevance R in Score_r"},
    "set_beta": {"vi": "β: trọng số E_schema trong E", "en": "β: weight of E_schema in E"},
    "set_w_c": {"vi": "w_c: trọng số nhất quán cột", "en": "w_c: column consistency weight"},
    "set_w_g": {"vi": "w_g: trọng số nhất quán mức gộp", "en": "w_g: granularity consistency weight"},
    "set_w_j": {"vi": "w_j: trọng số nhất quán phép nối", "en": "w_j: join consistency weight"},
    "set_w_q": {"vi": "w_q: trọng số nhất quán logic", "en": "w_q: logic consistency weight"},
    "set_max_retrieval_iterations": {"vi": "Số lần truy xuất lại tối đa (vòng 1)", "en": "Most retrieval rounds (loop 1)"},
    "set_max_synthesis_iterations": {"vi": "Số lần viết lại SQL tối đa (vòng 2)", "en": "Most SQL regenerations (loop 2)"},
    "set_max_syntax_repairs": {"vi": "Số lần sửa lỗi cú pháp tối đa cho mỗi SQL", "en": "Most syntax repairs per SQL"},
    "set_max_entailment_iterations": {"vi": "Số lần quay lại từ bước kiểm chứng (vòng 3)", "en": "Most returns from the result check (loop 3)"},
    "set_database_url": {"vi": "URL cơ sở dữ liệu nhà hàng (để trống: PostgreSQL nhúng)", "en": "Restaurant database URL (empty: embedded PostgreSQL)"},
    "set_reader_url": {"vi": "URL chỉ-đọc để chạy SQL sinh ra", "en": "Read-only URL that generated SQL runs under"},
    "set_kb_url": {"vi": "URL cơ sở tri thức (pgvector)", "en": "Knowledge base URL (pgvector)"},
    "set_row_cap": {"vi": "Số dòng tối đa mỗi truy vấn", "en": "Most rows per query"},
    "set_statement_timeout_ms": {"vi": "Thời gian chạy tối đa mỗi câu lệnh (ms)", "en": "Longest a statement may run (ms)"},
    "set_ui_language": {"vi": "Ngôn ngữ giao diện", "en": "Interface language"},
    "set_reports_dir": {"vi": "Thư mục báo cáo đánh giá", "en": "Evaluation reports folder"},
    "set_group_model": {"vi": "Mô hình ngôn ngữ", "en": "Language model"},
    "set_group_scores": {"vi": "Ngưỡng và trọng số của Reflect-SQL", "en": "Reflect-SQL thresholds and weights"},
    "set_group_loops": {"vi": "Giới hạn vòng lặp", "en": "Loop limits"},
    "set_group_database": {"vi": "Cơ sở dữ liệu và an toàn", "en": "Database and safety"},
    "set_group_ui": {"vi": "Giao diện", "en": "Interface"},
    # Knowledge Base page
    "kb_tabs": {"vi": "Bảng & cột|Chỉ số|Thuật ngữ|Câu hỏi đã xác minh|Lịch sử thay đổi",
                "en": "Tables & columns|Metrics|Glossary|Verified examples|Revisions"},
    "kb_metrics_caption": {"vi": "Các chỉ số đã định nghĩa trong lớp ngữ nghĩa: Aria trả lời câu hỏi về chúng "
                                 "theo đúng định nghĩa này, không cần mô hình.",
                           "en": "The metrics defined in the semantic layer: Aria answers questions about them by "
                                 "these definitions, with no model."},
    "kb_metric_columns": {"vi": "Chỉ số|Tên (vi)|Tên (en)|Đơn vị|Định nghĩa|Cách gọi khác|Mã",
                          "en": "Metric|Name (vi)|Name (en)|Unit|Definition|Synonyms|Id"},
    "kb_concepts": {"vi": "Chiều phân tích (xem chỉ số theo…)", "en": "Dimensions (metrics by…)"},
    "kb_concept_columns": {"vi": "Chiều|Tên (vi)|Tên (en)|Cách gọi khác|Mã",
                           "en": "Dimension|Name (vi)|Name (en)|Synonyms|Id"},
    "kb_semantic_off": {"vi": "Lớp ngữ nghĩa đang tắt (không nạp được mô hình ngữ nghĩa), nên chưa có chỉ số nào được "
                              "định nghĩa; nhật ký khởi động ghi lý do.",
                        "en": "The semantic layer is off (its model did not load), so no metrics are defined; the "
                              "start-up log says why."},
    "kb_table": {"vi": "Bảng", "en": "Table"},
    "kb_columns": {"vi": "Loại|Cột|Mô tả|Nguồn|Phiên bản", "en": "Kind|Column|Description|Source|Revision"},
    "kb_the_table": {"vi": "(cả bảng)", "en": "(the table itself)"},
    "kb_edit": {"vi": "Sửa mô tả", "en": "Edit a description"},
    "kb_column": {"vi": "Cột", "en": "Column"},
    "kb_new_text": {"vi": "Mô tả mới", "en": "New description"},
    "kb_save": {"vi": "Lưu mô tả", "en": "Save description"},
    "kb_saved": {"vi": "Đã lưu thành một thay đổi mới (hoàn tác ở thẻ Lịch sử thay đổi).",
                 "en": "Saved as a new revision (undo it on the Revisions tab)."},
    "kb_empty_text": {"vi": "Hãy viết mô tả mới trước khi lưu.", "en": "Write the new description first."},
    "kb_no_glossary": {"vi": "Chưa có thuật ngữ nào. Khi bạn xác nhận một câu trả lời, cách gọi của bạn được thêm vào đây.",
                       "en": "No glossary entries yet. Confirming an answer adds the words you used."},
    "kb_no_examples": {"vi": "Chưa có câu hỏi đã xác minh: hãy xác nhận một câu trả lời đúng ở trang Hỏi Aria, "
                             "hoặc lưu một truy vấn từ SQL Workbench.",
                       "en": "No verified queries yet: confirm a good answer in Chat, or save one from the SQL Workbench."},
    "kb_no_revisions": {"vi": "Chưa có thay đổi nào. Mỗi câu trả lời được xác nhận và mỗi lần sửa mô tả sẽ hiện ở đây, "
                              "và đều có thể hoàn tác.",
                        "en": "No changes yet. Every confirmed answer and every edit appears here, and can be undone."},
    "kb_revision_columns": {"vi": "#|Lúc|Người sửa|Loại|Câu hỏi|Đã hoàn tác",
                            "en": "#|When|By|Kind|Question|Undone"},
    "kb_undo_pick": {"vi": "Thay đổi cần hoàn tác", "en": "Revision to undo"},
    "kb_undo": {"vi": "Hoàn tác thay đổi này", "en": "Undo this revision"},
    "kb_undone": {"vi": "Đã hoàn tác thay đổi #{n}.", "en": "Revision #{n} undone."},
    # History page
    "history_empty": {"vi": "Chưa có câu hỏi nào. Hãy hỏi Aria ở trang Hỏi Aria; mọi câu hỏi sẽ được ghi lại ở đây.",
                      "en": "No questions asked yet. Ask one on the Chat page; every question is kept here."},
    "history_columns": {"vi": "#|Lúc|Câu hỏi|Trạng thái|Điểm|Giây|Lượt gọi mô hình",
                        "en": "#|When|Question|Status|Scores|Seconds|Model calls"},
    "history_pick": {"vi": "Xem lại câu hỏi", "en": "Question"},
    "history_trace": {"vi": "Các bước Aria đã làm", "en": "Trace"},
    "status_answered": {"vi": "đã trả lời", "en": "answered"},
    "status_reused": {"vi": "dùng lại truy vấn đã xác minh", "en": "reused a verified query"},
    "status_not_confident": {"vi": "chưa chắc chắn", "en": "not confident"},
    "status_no_model": {"vi": "chưa có mô hình", "en": "no model"},
    "status_error": {"vi": "lỗi", "en": "error"},
    # SQL Workbench
    "wb_caption": {"vi": "Chỉ đọc: mọi câu lệnh đều qua bộ kiểm tra an toàn và kiểm tra chi phí, rồi chạy bằng "
                         "vai trò chỉ-đọc với giới hạn thời gian.",
                   "en": "Read-only: every statement passes the safety guard and the cost guard, then runs as the "
                         "read-only role with a time limit."},
    "wb_run": {"vi": "Chạy", "en": "Run"},
    "wb_rows": {"vi": "{n} dòng trong {ms} ms", "en": "{n} rows in {ms} ms"},
    "wb_checks": {"vi": "Kiểm tra", "en": "Checks"},
    "wb_no_findings": {"vi": "Các kiểm tra tự động không thấy vấn đề gì.", "en": "No findings from the deterministic checks."},
    "wb_question": {"vi": "Câu hỏi mà SQL này trả lời", "en": "Question this SQL answers"},
    "wb_save": {"vi": "Lưu thành truy vấn đã xác minh", "en": "Save as verified query"},
    "wb_saved": {"vi": "Đã lưu: những câu hỏi giống câu này sẽ dùng lại truy vấn.",
                 "en": "Saved: questions like this one will reuse it."},
    "wb_need_question": {"vi": "Hãy viết câu hỏi mà SQL này trả lời trước khi lưu.",
                         "en": "Write the question this SQL answers first."},
    # Evaluation page
    "eval_empty": {"vi": "Chưa có báo cáo đánh giá nào trong `{folder}`. Chạy `aria eval ... --out {folder}/<tên>` "
                         "rồi tải lại trang, hoặc chọn thư mục báo cáo ở trang Cài đặt.",
                   "en": "No evaluation reports in `{folder}`. Run `aria eval ... --out {folder}/<name>` and reload, "
                         "or set the reports folder on the Settings page."},
}


def columns_of(key: str, language: Language = "vi") -> list[str]:
    """A '|'-separated list of column labels in the language."""
    return t(key, language).split("|")


def t(key: str, language: Language = "vi", **values: Any) -> str:
    """A UI string in the language, with ``{placeholders}`` filled."""
    text = STRINGS[key][language]
    return text.format(**values) if values else text

