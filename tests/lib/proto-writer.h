/* proto-writer.h: protobuf messages written field by field
 *
 * For tests and benchmarks that write Perfetto traces as Perfetto's
 * protos lay them out: varints, fixed 64-bit numbers, strings and
 * nested messages (a nested message is built in its own array, then
 * put, which frees it).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

GByteArray *proto_message      (void);
void        proto_put_varint   (GByteArray   *out,
                                guint64       value);
void        proto_put_uint     (GByteArray   *out,
                                guint         field,
                                guint64       value);
void        proto_put_fixed64  (GByteArray   *out,
                                guint         field,
                                guint64       value);
void        proto_put_bytes    (GByteArray   *out,
                                guint         field,
                                const guint8 *data,
                                gsize         len);
void        proto_put_string   (GByteArray   *out,
                                guint         field,
                                const char   *text);
void        proto_put_message  (GByteArray   *out,
                                guint         field,
                                GByteArray   *message);

G_END_DECLS
