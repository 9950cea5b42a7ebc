/// Weibo's error codes, read once into `ErrorKind` (open.weibo.com's error
/// code table, as the sandbox serves them: docs/SANDBOX.md).
public enum WeiboErrorKinds {
    /// The kind of a Weibo error body's `error_code`; nil for a code not listed here
    /// (then its HTTP status tells).
    public static func kind(code: Int?) -> ErrorKind? {
        guard let code else { return nil }
        switch code {
        case 20101, 20201, 20206, 20003: return .notFound      // status, comment, user not there
        case 21314, 21315, 21316, 21317, 21327, 21332, 21301, 21501: return .unauthorized
        case 10022, 10023, 10024: return .rateLimited
        case 20704, 20705, 20506, 20522: return .alreadyDone   // (un)favourited, (un)followed already
        case 20102, 20203, 10014, 10006: return .forbidden     // not your own; no permission
        case 10008, 10017, 20012, 20504, 10020, 10021, 21322, 21323, 21325, 21328, 21329: return .invalid
        case 21324: return .unauthorized                       // the app's credentials
        case 10001, 10002, 10003, 10009, 10010, 10011, 10012, 10013: return .server
        default: return nil
        }
    }
}
