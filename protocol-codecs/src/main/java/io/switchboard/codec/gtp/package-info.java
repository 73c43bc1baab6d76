/**
 * GTP wire formats: GTPv0 (GSM 09.60), GTPv1-C (TS 29.060) and GTPv2-C (TS 29.274).
 *
 * <p>Two layers, as in the rest of the codecs:
 * <ul>
 *   <li>Hot path: {@link io.switchboard.codec.gtp.GtpMessageView} answers a plug-in's questions about
 *       a datagram of any version (kind of message, sequence, TEID, IMSI, cause, sender endpoint) and
 *       makes same-length rewrites, reading in place over the version header views
 *       ({@code GtpV0Header}, {@code GtpV1Header}, {@code GtpV2Header}) and IE walkers
 *       ({@code GtpV1Ies}, {@code GtpV2Ies}). Nothing is copied, the reader index never moves.</li>
 *   <li>Model: {@code GtpV0Codec}, {@code GtpV1Codec}, {@code GtpV2Codec} decode into
 *       {@code GtpVnMessage} (interface, {@code DefaultGtpVnMessage}, IE records) and encode back,
 *       byte for byte: unknown message types and IEs are kept raw.</li>
 * </ul>
 *
 * <p>Every length is checked before it is read; malformed input raises
 * {@link io.switchboard.codec.DecodeException} with reason {@code truncated}, {@code malformed} or
 * {@code unsupported-version}, never another exception. Buffers are borrowed: no retain, no release.
 * Views are reusable flyweights, one per event loop; they are not thread-safe.
 */
package io.switchboard.codec.gtp;
